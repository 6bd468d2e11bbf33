#pragma once
// Internal: Claude Code `Read(...)` and `Edit(...)` path patterns as toolguard
// path globs.

#include <string>
#include <vector>

#include "foreign_policy/claude_rule_text.hpp"

namespace toolguard::detail {

/// The tools a Claude Code `Read` rule covers: Read, and (as Claude Code's
/// best effort does) the search and listing tools.
const std::vector<std::string>& claudeReadTools();

/// The tools a Claude Code `Edit` rule covers: every built-in file editor.
const std::vector<std::string>& claudeEditTools();

/// A path rule on `tools` for one gitignore-style pattern: `//abs`, `~/home`,
/// `/path` (relative to rule.anchors), `path` or `./path` (relative to the
/// call's cwd). Throws PolicyError (at rule.where) for a pattern it cannot read.
ClaudeMapping mapPathPattern(const std::string& pattern, std::vector<std::string> tools,
                             const ClaudeRuleContext& rule);

/// The glob prefix for an absolute directory: glob characters escaped.
std::string escapeGlob(const std::string& directory);

}  // namespace toolguard::detail
