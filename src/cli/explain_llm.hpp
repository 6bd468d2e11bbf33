#pragma once
// `toolguard explain`, LLM part.

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/decision.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::cli {

/// Whether the LLM validator is on and, for a call the policy escalated, what
/// it said when asked (no cache): each request (API key redacted), each raw
/// reply, how the answer was read, and the decision the Guard reaches with it.
/// `status` is "off", "unavailable" (cannot be set up), "not-consulted" or
/// "consulted".
nlohmann::json llmReport(const ToolCall& call, const Engine& engine, const PolicySources& sources,
                         const Decision& policy_decision);

/// The text lines of llmReport's object, from "LLM validator: " on.
std::string llmReportText(const nlohmann::json& llm);

}  // namespace toolguard::cli
