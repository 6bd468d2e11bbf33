// Gemini CLI's JavaScript patterns read into RE2 syntax (linear time, so a
// pattern can never hang the guard) by regex/js_regex.hpp; JavaScript-only
// syntax is a load error.
#include "foreign_policy/gemini_regex.hpp"

#include <re2/re2.h>

#include "toolguard/policy_error.hpp"

namespace toolguard::detail::gemini {

JsPattern readJsPattern(const std::string& js, const SourceLocation& where, const char* what) {
  JsRegex read = translateJsRegex(js, JsRegexFlavor::Plain);
  auto fail = [&](const std::string& message) {
    throw PolicyError(where, std::string(what) + " '" + js + "': " + message);
  };
  if (!read.error.empty()) fail(read.error);
  // A rule whose pattern can never match is a mistake, not a rule.
  if (read.empty_class) fail("an empty character class never matches");
  RE2::Options options;
  options.set_log_errors(false);
  RE2 check(read.re2, options);
  if (!check.ok()) fail(check.error());
  return read;
}

ValuePattern readValuePattern(const std::string& js, const SourceLocation& where,
                              const char* what) {
  ValuePattern out;
  out.closed = !js.empty() && js.back() == '"' && (js.size() < 2 || js[js.size() - 2] != '\\');
  out.body = readJsPattern(out.closed ? js.substr(0, js.size() - 1) : js, where, what);
  return out;
}

bool geminiRefusesPattern(const std::string& js) {
  static const RE2 nested(R"(\([^)]*[*+?{].*\)[*+?{])");
  return js.size() > 2048 || RE2::PartialMatch(js, nested);
}

std::string quoteRegex(const std::string& text) {
  return RE2::QuoteMeta(text);
}

}  // namespace toolguard::detail::gemini
