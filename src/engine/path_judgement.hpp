#pragma once
// Internal: the one place where a path a call reads or writes meets the path
// rules, whatever the route (a file tool's argument, an MCP tool's, a shell
// command's redirection or operand).

#include <optional>
#include <string>
#include <vector>

#include "compiled_policy.hpp"
#include "engine/strictest_finding.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/path_access.hpp"

namespace toolguard::detail {

/// Judges each access by every restricting path rule of the policy
/// (CompiledPolicy::path_rules): each concrete path it stands for
/// (pathProbes) on its own. Findings go into `best` and `d.consulted` (each
/// rule once per access list: its strictest finding, or that it abstained);
/// `command_index` and `command_text` name the shell command the accesses
/// belong to (nullopt and "" for the call's own arguments). Returns true
/// when a rule had a finding.
bool judgePathAccesses(const CompiledPolicy& compiled, const CallView& view,
                       const std::vector<PathAccess>& accesses, std::optional<size_t> command_index,
                       const std::string& command_text, StrictestFinding& best, Decision& d);

/// "> (redirection) writes /w/.env", with "(-> TARGET)" when a link leads
/// elsewhere: what a reason says about an access of a shell command.
std::string describeAccess(const PathAccess& access);

}  // namespace toolguard::detail
