#pragma once
// `toolguard explain` of a shell call: the confinement the command would get
// under `toolguard sandbox` (or a hook installed with --sandbox yes), part by
// part, and whether this kernel holds each.

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::cli {

/// The report's `sandbox` field: null for a call that is not a shell
/// command; else the workspaces, the sandbox settings (with what the
/// allowing rule `rule_id` adds by its own sandbox:, named in `rule`) and
/// the parts (`what`, `held`, `why`).
nlohmann::json sandboxReport(const ToolCall& call, const Engine& engine,
                             const PolicySources& sources, const std::string& rule_id);

/// The text explain prints for it ("" for null).
std::string sandboxReportText(const nlohmann::json& sandbox);

}  // namespace toolguard::cli
