// The one JavaScript-to-RE2 translator (src/regex/js_regex.hpp), used by
// JSON Schema's `pattern` and by Gemini CLI's policy patterns.
#include "regex/js_regex.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

namespace toolguard {
namespace js_regex_test {

using detail::JsRegex;
using detail::JsRegexFlavor;
using detail::translateJsRegex;

JsRegex plain(std::string_view js) {
  return translateJsRegex(js, JsRegexFlavor::Plain);
}

JsRegex unicode(std::string_view js) {
  return translateJsRegex(js, JsRegexFlavor::Unicode);
}

// Whether the translated pattern finds a match in `text`, as JavaScript's
// RegExp.prototype.test would.
bool finds(std::string_view js, std::string_view text,
           JsRegexFlavor flavor = JsRegexFlavor::Unicode) {
  const JsRegex read = translateJsRegex(js, flavor);
  EXPECT_EQ(read.error, "") << js;
  RE2::Options options;
  options.set_log_errors(false);
  RE2 re(read.re2, options);
  EXPECT_TRUE(re.ok()) << js << " -> " << read.re2 << ": " << re.error();
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re);
}

TEST(JsRegex, SyntaxBothEnginesShareIsKept) {
  EXPECT_EQ(plain("^git (commit|push) -m .+$").re2, "^git (commit|push) -m .+$");
  EXPECT_EQ(plain("a{2,3}b*?").re2, "a{2,3}b*?");
  EXPECT_EQ(plain("(?:x)\\d\\w\\b").re2, "(?:x)\\d\\w\\b");
}

TEST(JsRegex, JavaScriptSpellingsBecomeRe2s) {
  EXPECT_EQ(plain("(?<verb>a)\\u0062[^]\\/").re2, "(?P<verb>a)\\x{0062}(?s:.)/");
  EXPECT_EQ(unicode(R"(^\u00e9$)").re2, R"(^\x{00e9}$)");
  EXPECT_EQ(unicode("(?<year>[0-9]{4})").re2, "(?P<year>[0-9]{4})");
  EXPECT_EQ(plain("\\x41\\cJ\\0").re2, "\\x41\\x0A\\x00");
  EXPECT_EQ(plain("a{b}").re2, "a\\{b\\}");              // no repetition: braces
  EXPECT_EQ(plain("[[:alpha:]]").re2, "[\\[:alpha:]]");  // no POSIX classes in JavaScript
}

TEST(JsRegex, MeaningsFollowJavaScript) {
  EXPECT_TRUE(finds(R"(^\s+$)", "\t\v\u00a0\u2028 \ufeff"));
  EXPECT_FALSE(finds(R"(\S)", "\u2029\u3000"));
  EXPECT_TRUE(finds(R"(^[\s]$)", "\u00a0"));
  EXPECT_TRUE(finds("^[^]$", "\n"));
  EXPECT_FALSE(finds("[]", "anything"));
  EXPECT_TRUE(finds("^[\\b]$", "\b"));
  EXPECT_TRUE(finds("^\\a\\e$", "ae", JsRegexFlavor::Plain));  // identity escapes
  EXPECT_TRUE(finds("^\\p{L}+$", "p{L}", JsRegexFlavor::Plain));
  EXPECT_TRUE(finds("^\\p{L}+$", "\u00e9t\u00e9"));  // the u flag: a Unicode property
  EXPECT_FALSE(finds("^\\P{L}$", "x"));
  EXPECT_TRUE(finds("^\\u{1F600}$", "\U0001F600"));
  EXPECT_TRUE(finds("^\\d$", "7"));
  EXPECT_FALSE(finds("^\\d$", "\u0663"));  // ASCII digits only, as in JavaScript
  EXPECT_TRUE(finds("^a$", "a"));
  EXPECT_FALSE(finds("^a$", "a\n"));  // $ is the end of the text, not of a line
}

TEST(JsRegex, JavaScriptOnlySyntaxIsRefusedWithASentence) {
  EXPECT_EQ(plain("rm(?= -rf)").error, "lookahead is not supported");
  EXPECT_EQ(unicode("(?!a)b").error, "lookahead is not supported");
  EXPECT_EQ(plain("(?<!x)y").error, "lookbehind is not supported");
  EXPECT_EQ(plain("(\\w+) \\1").error, "backreferences are not supported");
  EXPECT_EQ(unicode("(?<a>x)\\k<a>").error, "backreferences are not supported");
  EXPECT_EQ(plain("\\01").error, "octal escapes are not supported");
  EXPECT_EQ(plain("[\\1]").error, "octal escapes are not supported");
  EXPECT_EQ(plain("(?i)x").error, "unknown group syntax");
  EXPECT_EQ(plain("x\\").error, "ends with a backslash");
  EXPECT_EQ(plain("[ab").error, "unterminated character class");
  EXPECT_EQ(plain("\\u12").error, "incomplete \\u escape");
  EXPECT_EQ(unicode("\\p").error, "incomplete \\p escape");
  EXPECT_EQ(plain("a").error, "");
}

TEST(JsRegex, FactsAboutTheMatchedStrings) {
  EXPECT_EQ(plain("git (commit|push)").literal_prefix, "git ");
  EXPECT_EQ(plain("ab?c").literal_prefix, "a");
  EXPECT_EQ(plain("git a+?").literal_prefix, "git ");  // a lazy mark drops nothing more
  EXPECT_EQ(plain("a|b").literal_prefix, "");
  EXPECT_EQ(plain("\u00e9t\u00e9*").literal_prefix, "\u00e9t");
  EXPECT_TRUE(plain("rm \\-rf").all_literal);
  EXPECT_FALSE(plain("rm -r.").all_literal);
  EXPECT_TRUE(plain("^git").anchored);
  EXPECT_FALSE(plain("[$^]").anchored);
  EXPECT_TRUE(plain("\"command\":\"ls").quotes);
  EXPECT_TRUE(plain("a\\\\b").quotes);
  EXPECT_TRUE(plain("\\u0022").quotes);
  EXPECT_FALSE(plain("ls -la").quotes);
  EXPECT_TRUE(plain("x[]").empty_class);
  EXPECT_FALSE(plain("x[^]").empty_class);
}

}  // namespace js_regex_test
}  // namespace toolguard
