// ECMA-262 patterns on RE2.
#include "schema/regex.hpp"

#include <re2/re2.h>

#include "regex/js_regex.hpp"

namespace toolguard::schema {

std::shared_ptr<const re2::RE2> compilePattern(std::string_view pattern, std::string& error) {
  const detail::JsRegex translated =
      detail::translateJsRegex(pattern, detail::JsRegexFlavor::Unicode);
  if (!translated.error.empty()) {
    error = translated.error;
    return nullptr;
  }
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  auto re = std::make_shared<const re2::RE2>(translated.re2, options);
  if (!re->ok()) {
    error = re->error();
    return nullptr;
  }
  return re;
}

bool searchPattern(const re2::RE2& re, std::string_view text) {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re);
}

}  // namespace toolguard::schema
