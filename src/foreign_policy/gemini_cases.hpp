#pragma once
// Internal: building the toolguard cases of one Gemini CLI rule.

#include <string>
#include <vector>

#include "foreign_policy/gemini_regex.hpp"
#include "foreign_policy/gemini_rule.hpp"
#include "foreign_policy/gemini_targets.hpp"

namespace toolguard::detail::gemini {

/// Collects the cases and notes of one rule.
struct CaseBuilder {
  const GeminiRule& rule;
  std::string reason;           ///< the finding's reason for every case
  std::vector<RuleSpec> cases;  ///< in the order they are tried
  std::vector<ImportNote> notes;
  bool broadened = false;  ///< a restricting rule now matches more than the source

  /// True for an allow rule (read narrowly); false for deny and ask_user (read broadly).
  bool allows() const { return rule.decision == Verdict::Allow; }

  /// A case of this rule for `tools`, without conditions.
  RuleSpec make(std::vector<std::string> tools) const;

  /// Records a note about this rule.
  void note(std::string message);
};

/// commandPrefix: one prefix of a run_shell_command rule.
void addPrefixCases(CaseBuilder& b, const Field& prefix);

/// commandRegex (or an argsPattern `"command":"...`): `pattern` is the part
/// after `"command":"`, already read from `field`.
void addCommandRegexCases(CaseBuilder& b, const Field& field, const ValuePattern& pattern);

/// argsPattern on any tool.
void addArgsPatternCases(CaseBuilder& b, const ToolTargets& targets, const Field& field);

/// For allow cases on the shell tool: Gemini CLI asks when the command
/// redirects, unless the rule sets allowRedirection. Puts an ask case before
/// each such allow case.
void addRedirectionGuards(CaseBuilder& b);

/// The regex a `command:` matcher uses to find a redirection in the command
/// text (any `<` or `>`: more than the shell's redirections, never fewer).
inline constexpr const char* kRedirectionText = ".*[<>].*";

}  // namespace toolguard::detail::gemini
