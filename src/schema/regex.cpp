// ECMA-262 patterns on RE2.
#include "schema/regex.hpp"

#include <re2/re2.h>

#include "regex/js_regex.hpp"

namespace toolguard::schema {

Expected<std::shared_ptr<const re2::RE2>> compilePattern(std::string_view pattern) {
  const detail::JsRegex translated =
      detail::translateJsRegex(pattern, detail::JsRegexFlavor::Unicode);
  if (!translated.error.empty()) return fail(translated.error);
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  auto re = std::make_shared<const re2::RE2>(translated.re2, options);
  if (!re->ok()) return fail(re->error());
  return re;
}

bool searchPattern(const re2::RE2& re, std::string_view text) {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re);
}

}  // namespace toolguard::schema
