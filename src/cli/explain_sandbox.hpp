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
/// command; else the workspaces, the policy's sandbox settings and the
/// parts (`what`, `held`, `why`).
nlohmann::json sandboxReport(const ToolCall& call, const Engine& engine,
                             const PolicySources& sources);

/// The text explain prints for it ("" for null).
std::string sandboxReportText(const nlohmann::json& sandbox);

}  // namespace toolguard::cli
