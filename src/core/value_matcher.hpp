#pragma once
// Compiled forms of ValueMatcher and PathMatcher.

#include <re2/re2.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// A ValueMatcher with its patterns compiled.
class CompiledValueMatcher {
 public:
  /// Throws PolicyError (at spec.where) for a bad regex or glob.
  explicit CompiledValueMatcher(const ValueMatcher& spec);

  /// Strings, numbers and booleans are tested directly; a list matches when
  /// any element does; objects only match `equals`.
  bool matches(const nlohmann::json& value) const;

  /// Tests a plain string.
  bool matchesText(std::string_view text) const;

  /// e.g. `glob "/etc/**"`.
  std::string describe() const;

 private:
  bool matchesScalar(const nlohmann::json& value) const;
  std::optional<nlohmann::json> equals_;
  std::vector<nlohmann::json> one_of_;
  std::string glob_text_;
  std::string regex_text_;
  std::unique_ptr<RE2> glob_;
  std::unique_ptr<RE2> regex_;
};

/// A PathMatcher with its patterns compiled. Patterns are tested against
/// both the lexical and the resolved (symlink-free) form of each path, without
/// case where the file system ignores it; containment uses the resolved form.
class CompiledPathMatcher {
 public:
  /// `every_path`: the matcher belongs to a loosening rule (allow, escalate),
  /// which must hold for every path of the call and both of its forms. A
  /// restricting rule matches when one form of one path does.
  CompiledPathMatcher(const PathMatcher& spec, bool every_path);

  /// True when the call's paths satisfy every condition that is set.
  bool matches(const CallView& view) const;

  std::string describe() const;

 private:
  bool nameMatches(const std::string& name, bool fold, const CallView& view) const;
  bool globMatches(const std::string& name, bool fold, const CallView& view) const;
  bool pathMatches(const ResolvedPath& path, const CallView& view) const;

  std::string glob_text_;
  std::string regex_text_;
  std::unique_ptr<RE2> glob_;
  std::unique_ptr<RE2> regex_;
  std::unique_ptr<RE2> glob_nocase_;
  std::unique_ptr<RE2> cwd_glob_;  ///< `./` globs: on the path below the call's cwd
  std::unique_ptr<RE2> cwd_glob_nocase_;
  std::unique_ptr<RE2> regex_nocase_;
  std::optional<bool> outside_workspace_;
  bool every_path_;
};

/// Compiles `pattern` with RE2 (whole-value match) or throws PolicyError at `where`.
std::unique_ptr<RE2> compileRegex(const std::string& pattern, const SourceLocation& where,
                                  std::string_view what);

/// Patterns already in RE2 syntax as one alternation, compiled once; only when
/// that fails is each compiled alone, to name the bad one in the PolicyError.
/// nullptr when there are no patterns.
std::unique_ptr<RE2> compileAlternatives(const std::vector<std::string>& patterns,
                                         const SourceLocation& where, std::string_view what);

}  // namespace toolguard::detail
