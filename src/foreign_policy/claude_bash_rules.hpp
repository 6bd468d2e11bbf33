#pragma once
// Internal: Claude Code `Bash(...)` permission rules as toolguard shell rules.

#include <string>

#include "foreign_policy/claude_rule_text.hpp"

namespace toolguard::detail {

/// A bare `Bash` (or `Bash(*)`) rule: every command.
ClaudeMapping mapBareBash(const ClaudeRuleContext& rule);

/// `Bash(pattern)`: exact, `prefix:*` (legacy, the same as `prefix *`) or a
/// pattern with `*` wildcards, judged on each simple command of the program.
/// Throws PolicyError (at rule.where) for a pattern that cannot be read.
ClaudeMapping mapBashPattern(const std::string& pattern, const ClaudeRuleContext& rule);

}  // namespace toolguard::detail
