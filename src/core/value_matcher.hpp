#pragma once
// Compiled forms of ValueMatcher and PathMatcher.

#include <re2/re2.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "lazy_regex.hpp"
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

  /// As matches, but a list matches only when it has elements and every one
  /// does: what a rule that loosens (allow, escalate) needs, so that one
  /// harmless element does not carry the others.
  bool matchesEvery(const nlohmann::json& value) const;

  /// Tests a plain string.
  bool matchesText(std::string_view text) const;

  /// e.g. `glob "/etc/**"`.
  std::string describe() const;

 private:
  bool matchesScalar(const nlohmann::json& value) const;
  bool leadsTo(std::string_view text) const;  ///< the URL leads where web_url_ says
  std::optional<nlohmann::json> equals_;
  std::vector<nlohmann::json> one_of_;
  std::optional<WebUrlKind> web_url_;
  std::string glob_text_;
  std::string regex_text_;
  std::unique_ptr<LazyRegex> glob_;  ///< compiled the first time a value meets it
  std::unique_ptr<RE2> regex_;       ///< the user's own: compiled at load
};

/// Compiles `pattern` with RE2 (whole-value match) or throws PolicyError at `where`.
std::unique_ptr<RE2> compileRegex(const std::string& pattern, const SourceLocation& where,
                                  std::string_view what);

/// Patterns already in RE2 syntax as one alternation, compiled once; only when
/// that fails is each compiled alone, to name the bad one in the PolicyError.
/// nullptr when there are no patterns.
std::unique_ptr<RE2> compileAlternatives(const std::vector<std::string>& patterns,
                                         const SourceLocation& where, std::string_view what);

/// Patterns translated to RE2 by `translate`, as one alternation compiled
/// once; `text` lists them as written. nullptr when there are none.
template <typename Translate>
std::unique_ptr<RE2> compileTranslated(const std::vector<std::string>& patterns,
                                       const SourceLocation& where, std::string_view what,
                                       std::string& text, Translate translate) {
  std::vector<std::string> translated;
  for (const std::string& p : patterns) {
    translated.push_back(translate(p));
    if (!text.empty()) text += "\", \"";
    text += p;
  }
  return compileAlternatives(translated, where, what);
}

/// Globs translated to RE2 by `translate`, as one alternation compiled the
/// first time it is used. A translated glob is valid RE2 except for what its
/// bracket classes say, so a glob with one is compiled alone now, to name it
/// in a PolicyError when it is bad. nullptr when there are none.
template <typename Translate>
std::unique_ptr<LazyRegex> lazyTranslated(const std::vector<std::string>& globs,
                                          const SourceLocation& where, std::string_view what,
                                          std::string& text, Translate translate,
                                          bool check_classes = true) {
  if (globs.empty()) return nullptr;
  for (const std::string& g : globs) {
    if (check_classes && g.find('[') != std::string::npos) {
      compileRegex(translate(g), where, what);
    }
    if (!text.empty()) text += "\", \"";
    text += g;
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  // Written on first use: `translate` is kept, so it must own what it uses.
  return std::make_unique<LazyRegex>(
      [globs, translate] {
        std::string joined;
        for (const std::string& g : globs) {
          if (!joined.empty()) joined += '|';
          joined.append("(?:").append(translate(g)).append(")");
        }
        return "(?:" + joined + ")";
      },
      options);
}

}  // namespace toolguard::detail
