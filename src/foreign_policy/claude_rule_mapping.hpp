#pragma once
// Internal: one Claude Code permission rule string as a toolguard rule.

#include "foreign_policy/claude_rule_text.hpp"

namespace toolguard::detail {

/// Maps a split rule string: bare tool names, tool-name globs, MCP names,
/// `Bash(...)`, `Read(...)`/`Edit(...)` paths, `WebFetch(domain:...)`,
/// `Agent(...)`, and `Tool(param:value)` in deny and ask lists. Rules Claude
/// Code itself ignores, and rules toolguard cannot express without allowing
/// more, are left out with a note; a restricting rule toolguard cannot express
/// exactly is read more strictly, with a note. Throws PolicyError (at
/// rule.where) for a rule Claude Code does not define.
ClaudeMapping mapClaudeRule(const ClaudeRuleText& text, const ClaudeRuleContext& rule);

}  // namespace toolguard::detail
