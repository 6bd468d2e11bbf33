// parseStrictJson: a key twice in one object is refused at any depth and
// named by its JSON pointer; syntax errors and nesting limits as before.
#include "toolguard/strict_json.hpp"

#include <gtest/gtest.h>

namespace toolguard {
namespace strict_json_test {

using nlohmann::json;

TEST(StrictJson, AcceptsWhatThePlainParserAccepts) {
  for (const char* text :
       {R"({"tool":"Bash","args":{"command":"ls","env":{"A":"1","B":[1,2,{"c":null}]}}})",
        R"([1,2.5,-3,"x",true,false,null,{},[]])", R"("just a string")", "42", "  {} ",
        R"({"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]})"}) {
    StrictJson r = parseStrictJson(text);
    ASSERT_TRUE(r.value) << text << ": " << r.error;
    EXPECT_EQ(r.problem, StrictJsonProblem::None);
    EXPECT_EQ(*r.value, json::parse(text)) << text;
  }
}

TEST(StrictJson, RefusesADuplicateKeyAtTheTop) {
  StrictJson r = parseStrictJson(R"({"command":"ls","command":"rm -rf ~"})");
  EXPECT_FALSE(r.value);
  EXPECT_EQ(r.problem, StrictJsonProblem::DuplicateKey);
  EXPECT_EQ(r.pointer, "/command");
  EXPECT_NE(r.error.find("duplicate key \"command\" at /command"), std::string::npos) << r.error;
}

TEST(StrictJson, NamesTheDuplicateKeyAtAnyDepth) {
  struct Case {
    const char* text;
    const char* pointer;
  };
  for (const Case& c : {
           Case{R"({"tool":"Bash","args":{"command":"ls","command":"rm -rf ~"}})", "/args/command"},
           Case{R"({"tool":"Bash","tool":"Read","args":{}})", "/tool"},
           Case{R"({"a":[0,1,{"b":{"c":1,"d":2,"c":3}}]})", "/a/2/b/c"},
           Case{R"([{"x":1},{"y":1,"y":2}])", "/1/y"},
           Case{R"({"a/b":{"m~n":{"k":1,"k":2}}})", "/a~1b/m~0n/k"},  // RFC 6901 escapes
           Case{R"({"toolCall":{"name":"x","args":{"p":[[{"q":1}],{"q":1,"q":1}]}}})",
                "/toolCall/args/p/1/q"},
       }) {
    StrictJson r = parseStrictJson(c.text);
    EXPECT_FALSE(r.value) << c.text;
    EXPECT_EQ(r.problem, StrictJsonProblem::DuplicateKey) << c.text;
    EXPECT_EQ(r.pointer, c.pointer) << c.text;
    EXPECT_NE(r.error.find(std::string("at ") + c.pointer), std::string::npos) << r.error;
  }
}

TEST(StrictJson, KeysThatOnlyLookAlikeAreDifferentKeys) {
  // Byte-wise distinct keys are distinct (an escape spelling the same key is not).
  StrictJson r = parseStrictJson(R"({"a":1,"A":2,"a ":3})");
  EXPECT_TRUE(r.value) << r.error;
  StrictJson escaped = parseStrictJson(R"({"a":1,"\u0061":2})");
  EXPECT_EQ(escaped.problem, StrictJsonProblem::DuplicateKey);
  EXPECT_EQ(escaped.pointer, "/a");
}

TEST(StrictJson, SyntaxErrorsNameLineAndColumn) {
  StrictJson r = parseStrictJson("{\"tool\":\n  \"Bash\",}");
  EXPECT_FALSE(r.value);
  EXPECT_EQ(r.problem, StrictJsonProblem::Syntax);
  EXPECT_NE(r.error.find("invalid JSON"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("line 2"), std::string::npos) << r.error;
  EXPECT_EQ(parseStrictJson("").problem, StrictJsonProblem::Syntax);
  EXPECT_EQ(parseStrictJson("{} {}").problem, StrictJsonProblem::Syntax);
  EXPECT_EQ(parseStrictJson("{\"a\":\"\xff\"}").problem, StrictJsonProblem::Syntax);
}

TEST(StrictJson, RefusesNestingPastTheLimitWithoutRecursion) {
  const std::string ok = std::string(8, '[') + std::string(8, ']');
  EXPECT_TRUE(parseStrictJson(ok, 8).value);
  StrictJson r = parseStrictJson(std::string(9, '[') + std::string(9, ']'), 8);
  EXPECT_EQ(r.problem, StrictJsonProblem::TooDeep);
  EXPECT_NE(r.error.find("nested deeper than 8 levels"), std::string::npos) << r.error;
  // Very deep input stops at the limit; an unlimited parse builds it without recursing.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_EQ(parseStrictJson(deep).problem, StrictJsonProblem::TooDeep);
  EXPECT_TRUE(parseStrictJson(deep, std::numeric_limits<size_t>::max()).value);
}

TEST(StrictJson, ANulByteAnywhereIsRefusedNotReadAsTheEnd) {
  // The JSON library stops at a NUL: "{...}\0{...}" would be the first value alone.
  for (const std::string& text :
       {std::string("{\"a\":1}\0{\"a\":2}", 15), std::string("{\"a\":1}\0", 8),
        std::string("\0{}", 3), std::string("{\"a\":\"x\0y\"}", 11), std::string("1\0", 2)}) {
    StrictJson r = parseStrictJson(text);
    EXPECT_FALSE(r.value) << text.size();
    EXPECT_EQ(r.problem, StrictJsonProblem::Syntax);
    EXPECT_NE(r.error.find("a NUL byte at offset"), std::string::npos) << r.error;
  }
  // Written as an escape inside a string, it is a character like any other.
  EXPECT_TRUE(parseStrictJson(R"({"a":"x\u0000y"})").value);
  EXPECT_TRUE(parseStrictJson("{\"a\":1} \r\n\t").value);
}

TEST(StrictJson, ADuplicateAfterTheLimitOrASyntaxErrorReportsWhatCameFirst) {
  StrictJson r = parseStrictJson(R"({"a":1,"a":2,)");
  EXPECT_EQ(r.problem, StrictJsonProblem::DuplicateKey);
  r = parseStrictJson(R"({"a":1 "a":2})");
  EXPECT_EQ(r.problem, StrictJsonProblem::Syntax);
}

}  // namespace strict_json_test
}  // namespace toolguard
