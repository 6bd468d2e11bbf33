// The JSON library's exception text read as a sentence (src/json/json_error.hpp):
// no "[json.exception...]" codes reach a person or a model.
#include "json/json_error.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "toolguard/strict_json.hpp"

namespace toolguard {
namespace json_error_test {

std::string parseFailure(const std::string& text) {
  try {
    const nlohmann::json parsed = nlohmann::json::parse(text);
    return parsed.is_discarded() ? "discarded" : "parsed";
  } catch (const nlohmann::json::exception& e) {
    return detail::jsonErrorSentence(e);
  }
  return "parsed";
}

TEST(JsonError, ParseErrorsBecomeSentencesWithLineAndColumn) {
  EXPECT_EQ(parseFailure("{\"a\": 1"),
            "invalid JSON at line 1, column 8: unexpected end of input; expected '}'");
  EXPECT_EQ(parseFailure("{\n  \"a\": tru\n}"),
            "invalid JSON at line 3: invalid literal; last read: '\"a\": tru<U+000A>'");
  const detail::JsonErrorText text = detail::readJsonError(
      "[json.exception.parse_error.101] parse error at line 3, column 9: syntax error while "
      "parsing object key - unexpected '}'; expected string literal");
  EXPECT_EQ(text.line, 3u);
  EXPECT_EQ(text.column, 9u);
  EXPECT_EQ(text.message, "unexpected '}'; expected string literal");
}

TEST(JsonError, OtherExceptionsLoseOnlyTheirCode) {
  const detail::JsonErrorText text =
      detail::readJsonError("[json.exception.type_error.316] invalid UTF-8 byte at index 1: 0xFF");
  EXPECT_EQ(text.message, "invalid UTF-8 byte at index 1: 0xFF");
  EXPECT_EQ(text.line, 0u);
  EXPECT_EQ(detail::readJsonError("something else").message, "something else");
}

TEST(JsonError, TheStrictParserSaysWhereInASentence) {
  const StrictJson r = parseStrictJson("{\"tool\": \"Bash\",\n \"args\": {\"command\": \"ls\"}");
  EXPECT_EQ(r.error, "invalid JSON at line 2, column 27: unexpected end of input; expected '}'");
  EXPECT_EQ(r.error.find("json.exception"), std::string::npos);
}

}  // namespace json_error_test
}  // namespace toolguard
