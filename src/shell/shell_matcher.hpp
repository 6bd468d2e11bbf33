#pragma once
// Internal: the compiled form of a policy file's `shell:` matcher.

#include <re2/re2.h>

#include <memory>
#include <string>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// Matches one simple command against token patterns, regexes and written paths.
class CompiledShellMatcher {
 public:
  /// Throws PolicyError at spec.where for a bad pattern or an empty matcher.
  explicit CompiledShellMatcher(const ShellMatcher& spec);
  CompiledShellMatcher(const CompiledShellMatcher&) = delete;

  bool matches(const SimpleCommand& command, const CallView& view) const;
  std::string describe() const;

 private:
  std::vector<std::vector<std::string>> tokens_;
  std::unique_ptr<RE2> regex_;
  std::unique_ptr<RE2> writes_;
  std::string text_;
};

}  // namespace toolguard::detail
