#pragma once
// Compiled forms of ValueMatcher and PathMatcher.

#include <re2/re2.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

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

/// A PathMatcher with its patterns compiled.
class CompiledPathMatcher {
 public:
  explicit CompiledPathMatcher(const PathMatcher& spec);

  /// True when one path satisfies every condition that is set.
  bool matchesAny(const std::vector<std::string>& paths,
                  const std::vector<std::string>& workspace_roots) const;

  std::string describe() const;

 private:
  std::string glob_text_;
  std::string regex_text_;
  std::unique_ptr<RE2> glob_;
  std::unique_ptr<RE2> regex_;
  std::optional<bool> outside_workspace_;
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
