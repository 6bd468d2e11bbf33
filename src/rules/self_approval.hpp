#pragma once
// Internal: commands by which an agent would approve itself: toolguard's own
// commands that change approvals, hooks or policies, and the other agents'
// commands that widen their permissions or switch their approvals off.

#include <optional>
#include <string>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// What the command changes ("toolguard approvals add remembers an
/// approval", ...), or nullopt when it changes no approval, hook or policy.
std::optional<std::string> changesApprovals(const SimpleCommand& command);

}  // namespace toolguard::detail
