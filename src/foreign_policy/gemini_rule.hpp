#pragma once
// Internal: one `[[rule]]` table of a Gemini CLI policy file, checked against
// Gemini CLI's schema (docs/formats/gemini-cli-policy.md), and what toolguard
// makes of it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "foreign_policy/foreign_policy.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail::gemini {

/// A string value of the file and where it is.
struct Field {
  std::string text;
  SourceLocation where;
};

/// A `[[rule]]` table whose fields have the types Gemini CLI's schema requires.
struct GeminiRule {
  SourceLocation where;                   ///< the table (its `[[rule]]` header)
  std::string file;                       ///< the policy file, for reasons and ids
  std::vector<Field> tool_names;          ///< toolName: one name or several
  std::optional<Field> mcp_name;          ///< mcpName
  std::optional<Field> args_pattern;      ///< argsPattern
  std::vector<Field> command_prefixes;    ///< commandPrefix: one prefix or several
  std::optional<Field> command_regex;     ///< commandRegex
  Verdict decision = Verdict::Deny;       ///< allow, deny, ask_user (ask)
  int priority = 0;                       ///< 0..999
  std::vector<std::string> modes;         ///< default, autoEdit, yolo, plan
  std::optional<bool> interactive;        ///< only (non-)interactive sessions
  std::optional<std::string> subagent;    ///< only calls of this subagent
  bool has_annotations = false;           ///< toolAnnotations set
  bool allow_redirection = false;         ///< allowRedirection / allow_redirection
  std::string deny_message;               ///< denyMessage / deny_message
  std::vector<std::string> ignored_keys;  ///< keys Gemini CLI's schema does not know
};

/// Reads a policy file's `[[rule]]` tables (toml++). Throws PolicyError with
/// every error found: invalid TOML, a rule that breaks the schema, a pattern
/// RE2 cannot read. Top-level keys other than `rule` get notes.
std::vector<GeminiRule> readGeminiRules(std::string_view text, const std::string& file,
                                        std::vector<ImportNote>& notes);

/// What one Gemini rule becomes.
struct MappedRule {
  /// Cases of the file's first_match rule, in the order they are tried.
  std::vector<RuleSpec> cases;
  /// Restricting rules read more broadly than the source: outside the order,
  /// so they cannot shadow a later, stricter case (strictest finding wins).
  std::vector<RuleSpec> standalone;
  /// An ask rule read more broadly than the source: it stays in the order,
  /// and the deny cases after it are also added as rules of their own (see
  /// importGeminiPolicy), so the broader reading cannot hide them.
  bool broadened_ask = false;
  std::vector<ImportNote> notes;
};

/// Maps one rule. `id` names its cases and standalone rules. Throws PolicyError
/// at the field for a pattern RE2 cannot read.
MappedRule mapGeminiRule(const GeminiRule& rule, const std::string& id);

}  // namespace toolguard::detail::gemini
