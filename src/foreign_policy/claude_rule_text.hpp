#pragma once
// Internal: one Claude Code permission rule string (`Tool` or
// `Tool(specifier)`), what the import knows about the rule, and what it makes
// of it.

#include <optional>
#include <string>
#include <vector>

#include "toolguard/expected.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// A rule string split into its parts.
struct ClaudeRuleText {
  std::string tool;                      ///< `Bash`, `mcp__github__*`, ...
  std::optional<std::string> specifier;  ///< the text between the parentheses
};

/// Splits `Tool` / `Tool(specifier)`; parentheses inside the specifier are
/// literal. Fails, saying why, for anything else (empty, no closing
/// parenthesis, a tool name with characters tool names never have).
Expected<ClaudeRuleText> splitClaudeRule(const std::string& rule);

/// Everything a mapper needs to know about the rule it maps.
struct ClaudeRuleContext {
  std::string text;                  ///< the whole rule string, for reasons and notes
  std::string list;                  ///< "allow", "ask" or "deny"
  Verdict verdict = Verdict::Deny;   ///< the list's verdict
  SourceLocation where;              ///< the rule string in the settings file
  std::vector<std::string> anchors;  ///< glob prefixes a `/path` pattern is relative to

  /// True for ask and deny rules: they only restrict, so where Claude Code's
  /// meaning can be read two ways they take the broader reading.
  bool restricts() const { return verdict != Verdict::Allow; }
};

/// What one rule string becomes: a rule (unless it is left out) and notes.
struct ClaudeMapping {
  std::optional<RuleSpec> rule;    ///< target and conditions; header and verdict set by the caller
  std::vector<std::string> notes;  ///< told to the user by `toolguard policy import`
};

/// A mapping to a rule on `tools` with no conditions.
ClaudeMapping wholeTools(std::vector<std::string> tools);

/// A mapping that leaves the rule out, saying why.
ClaudeMapping leftOut(std::string note);

}  // namespace toolguard::detail
