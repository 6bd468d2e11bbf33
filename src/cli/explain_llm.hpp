#pragma once
// `toolguard explain`, LLM part.

#include "toolguard/decision.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::cli {

/// Prints whether the LLM validator is on and, for a call the policy
/// escalated, asks it (no cache) and prints each request (API key
/// redacted), each raw reply, how the answer was read, and the decision
/// the Guard reaches with it.
void printLlmConsultation(const ToolCall& call, const Engine& engine, const PolicySources& sources,
                          const Decision& policy_decision);

}  // namespace toolguard::cli
