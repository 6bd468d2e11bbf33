#pragma once
// Internal: the compiled form of a policy file's `shell:` matcher.

#include <re2/re2.h>

#include <memory>
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
  CompiledShellMatcher(const ShellMatcher& spec, bool every_write);
  CompiledShellMatcher(const CompiledShellMatcher&) = delete;

  bool matches(const SimpleCommand& command, const CallView& view) const;
  std::string describe() const;

 private:
  std::vector<std::vector<std::string>> tokens_;
  std::unique_ptr<RE2> regex_;
  std::optional<CompiledPathMatcher> writes_;  ///< the path rules' own glob dialect
  std::string text_;
};

}  // namespace toolguard::detail
