// ECMA-262 patterns on RE2.
#include "schema/regex.hpp"

#include <re2/re2.h>

namespace toolguard::schema {
namespace {

// ECMA-262 WhiteSpace and LineTerminator (\s), as the inside of a class.
constexpr std::string_view kEcmaSpace = "\\t\\n\\x0B\\f\\r \\p{Z}\\x{FEFF}";

bool isHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

std::string translateEcmaPattern(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size() + 8);
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const char next = pattern[i + 1];
      if (next == 'u' && i + 5 < pattern.size() && isHex(pattern[i + 2]) && isHex(pattern[i + 3]) &&
          isHex(pattern[i + 4]) && isHex(pattern[i + 5])) {
        out += "\\x{";
        out += pattern.substr(i + 2, 4);
        out += '}';
        i += 5;
        continue;
      }
      if (next == 's') {
        if (in_class) {
          out += kEcmaSpace;
        } else {
          out += '[';
          out += kEcmaSpace;
          out += ']';
        }
        ++i;
        continue;
      }
      if (next == 'S' && !in_class) {
        out += "[^";
        out += kEcmaSpace;
        out += ']';
        ++i;
        continue;
      }
      out += c;
      out += next;
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      // ECMA's "[]" matches nothing and "[^]" any character; RE2 would read the "]" as a literal.
      if (pattern.substr(i, 2) == "[]") {
        out += "[^\\x00-\\x{10FFFF}]";
        i += 1;
        continue;
      }
      if (pattern.substr(i, 3) == "[^]") {
        out += "[\\x00-\\x{10FFFF}]";
        i += 2;
        continue;
      }
      in_class = true;
      out += c;
      continue;
    }
    if (c == '(' && pattern.substr(i, 3) == "(?<" && i + 3 < pattern.size() &&
        pattern[i + 3] != '=' && pattern[i + 3] != '!') {
      out += "(?P<";
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}

std::shared_ptr<const re2::RE2> compilePattern(std::string_view pattern, std::string& error) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  const std::string translated = translateEcmaPattern(pattern);
  auto re = std::make_shared<const re2::RE2>(translated, options);
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
