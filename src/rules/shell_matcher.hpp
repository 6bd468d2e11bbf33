#pragma once
// Internal: the compiled form of a policy file's `shell:` matcher.

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "paths/path_matcher.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// Matches one simple command against token patterns, regexes and written paths.
class CompiledShellMatcher {
 public:
  /// Throws PolicyError at spec.where for a bad pattern or an empty matcher.
  /// `every_write`: the rule loosens (allow, escalate), so `writes` must hold
  /// for every path the command writes; otherwise one is enough.
  CompiledShellMatcher(ShellMatcher spec, bool every_write);
  CompiledShellMatcher(const CompiledShellMatcher&) = delete;

  bool matches(const SimpleCommand& command, const CallView& view) const;
  std::string describe() const;

 private:
  // The token patterns split into words, the first time a command is
  // matched: a check of a call that runs no shell command (a file tool's)
  // never splits the hundreds of patterns of the built-in rules.
  const std::vector<std::vector<std::string>>& tokens() const;

  std::vector<std::string> patterns_;  ///< the token patterns as written
  std::vector<std::string> regex_text_;
  std::vector<std::string> writes_text_;
  mutable std::once_flag split_once_;
  mutable std::vector<std::vector<std::string>> tokens_;
  std::unique_ptr<RE2> regex_;
  std::optional<CompiledPathMatcher> writes_;  ///< the path rules' own glob dialect
};

}  // namespace toolguard::detail
