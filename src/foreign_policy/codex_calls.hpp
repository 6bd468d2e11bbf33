#pragma once
// Internal: the calls of a Codex `.rules` file, checked the way Codex checks
// their arguments (prefix_rule, host_executable, network_rule).

#include <optional>
#include <string>
#include <vector>

#include "foreign_policy/codex_pattern.hpp"
#include "foreign_policy/foreign_policy.hpp"
#include "foreign_policy/starlark_reader.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {

/// A `match` or `not_match` example: the argument list Codex matches.
struct CodexExample {
  std::vector<std::string> argv;
  bool should_match = true;
  SourceLocation where;
};

/// One `prefix_rule(...)`.
struct CodexPrefixRule {
  SourceLocation where;          ///< the call
  SourceLocation pattern_where;  ///< the pattern's list
  CodexPattern pattern;
  std::string decision = "allow";  ///< allow, prompt or forbidden (Codex's default: allow)
  std::optional<std::string> justification;
  std::vector<CodexExample> examples;
};

/// What a rules file holds.
struct CodexFile {
  std::vector<CodexPrefixRule> rules;
  CodexHostExecutables hosts;     ///< host_executable entries (a later one replaces)
  std::vector<ImportNote> notes;  ///< for the calls toolguard has no use for
};

/// Checks every call's function and arguments. Problems (an unknown function
/// or argument, a positional argument, a wrong type, an empty pattern, a bad
/// decision, an example string that does not split) go to `errors`, each at
/// the value or call it is about; such calls are left out of the result.
CodexFile readCodexCalls(const std::vector<StarlarkCall>& calls,
                         std::vector<PolicyDiagnostic>& errors);

}  // namespace toolguard::detail
