#pragma once
// `toolguard explain`: everything known about one call's judgement, as one
// JSON document. `--json` prints it; the text output is rendered from it
// (explain_text.hpp). Its fields are documented in docs/policy-files.md.

#include <nlohmann/json.hpp>

#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::cli {

/// The version of the report's layout; fields are only ever added within one version.
constexpr int kExplainReportVersion = 1;

/// The report for `call`: the call and its tool, the shell program, the
/// paths, the policy layers and warnings, every rule consulted and what it
/// said, (with `all`) every other rule and why it did not match, the
/// decision and why, and the LLM validator's part.
nlohmann::json explainReport(const ToolCall& call, const Engine& engine,
                             const PolicySources& sources, bool all);

/// The report for a call that could not be read, or whose policy could not
/// be loaded: the deny, its reason, and the policy's errors (each with
/// `source` and `message`).
nlohmann::json explainFailure(const std::string& reason,
                              nlohmann::json errors = nlohmann::json::array());

}  // namespace toolguard::cli
