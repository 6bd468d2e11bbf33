#pragma once
// Internal: a rule's `path:` matcher compiled, and how it meets a path.

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/lazy_regex.hpp"
#include "path_glob_set.hpp"
#include "path_probes.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/path_access.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// A PathMatcher with its patterns compiled. Patterns are tested against
/// both the lexical and the resolved (symlink-free) form of each path, without
/// case where the file system ignores it; containment uses the resolved form.
class CompiledPathMatcher {
 public:
  /// `every_path`: the matcher belongs to a loosening rule (allow, escalate),
  /// which must hold for every path of the call and every form of each. A
  /// restricting rule matches when one form of one path does.
  CompiledPathMatcher(const PathMatcher& spec, bool every_path);

  /// True when the call's own paths (CallView::pathAccesses) satisfy every
  /// condition that is set: one of them for a restricting rule, all of them
  /// for a loosening one.
  bool matches(const CallView& view) const;

  /// The same test on a given list of accesses (a shell command's writes).
  bool matchesAccesses(const std::vector<PathAccess>& accesses, const CallView& view) const;

  /// True when one concrete path (a File probe, see pathProbes) meets the
  /// conditions. A path whose location is only known at run time never meets
  /// `outside_workspace`.
  bool matchesProbe(const PathAccess& probe, const CallView& view) const;

  /// Examples of the places the globs name (for pathProbes).
  const std::vector<PathExample>& examples() const;

  std::string describe() const;

 private:
  bool nameMatches(const std::string& name, bool fold, const CallView& view) const;
  bool globMatches(const std::string& name, bool fold, const CallView& view) const;
  bool excepted(const ResolvedPath& path) const;
  bool accessMatches(const PathAccess& access, const CallView& view) const;

  /// Reads the globs (once, on the first call that reaches the rule).
  void prepare() const;

  std::string regex_text_;
  std::unique_ptr<RE2> regex_;
  std::unique_ptr<LazyRegex> regex_nocase_;
  std::optional<bool> outside_workspace_;
  bool every_path_;
  std::vector<std::string> spec_globs_;
  std::vector<std::string> spec_except_;
  SourceLocation where_;
  std::string home_;
  // Made by prepare(); the globs' expressions compile later still, when a
  // path needs them (path_glob_set.hpp).
  mutable std::once_flag prepared_;
  mutable PathGlobSet globs_;
  mutable PathGlobSet cwd_globs_;  ///< `./` globs: on the path below the call's cwd
  mutable PathGlobSet except_;
  mutable std::vector<std::string> example_globs_;
  // What the globs name, for path probes: worked out the first time a call
  // needs them.
  mutable std::once_flag examples_once_;
  mutable std::vector<PathExample> examples_;
};

}  // namespace toolguard::detail
