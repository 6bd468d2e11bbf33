// One word written as bash text (src/core/shell_quote.cpp): single quotes,
// or the bare word when it is plain; read back by a shell splitter it is the
// same word.
#include "core/shell_quote.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "foreign_policy/shell_words.hpp"

namespace toolguard::detail {
namespace shell_quote_test {

TEST(ShellQuote, SingleQuotedAlwaysQuotesAndWritesAQuoteInsideAsQuoteBackslashQuoteQuote) {
  EXPECT_EQ(singleQuoted("abc"), "'abc'");
  EXPECT_EQ(singleQuoted(""), "''");
  EXPECT_EQ(singleQuoted("it's"), "'it'\\''s'");
  EXPECT_EQ(singleQuoted("''"), "''\\'''\\'''");
  EXPECT_EQ(singleQuoted("$HOME `x` \"y\" \\"), "'$HOME `x` \"y\" \\'");
}

TEST(ShellQuote, PlainWordsAreAsciiLettersDigitsAndAFewPunctuationMarks) {
  EXPECT_TRUE(isPlainShellWord("/usr/local/bin/tool-1.2_x+y:z,w@h%", EqualsSign::Plain));
  EXPECT_FALSE(isPlainShellWord("", EqualsSign::Plain));
  for (const char* word : {"a b", "a\tb", "~", "*", "?", "[a]", "$x", "a;b", "a|b", "a&b", "(a)",
                           "a'b", "a\"b", "a\\b", "#a", "{a,b}", "a\nb", "caf\xc3\xa9", "!a"}) {
    EXPECT_FALSE(isPlainShellWord(word, EqualsSign::Plain)) << word;
  }
  EXPECT_FALSE(isPlainShellWord(std::string("a\0b", 3), EqualsSign::Plain));
}

TEST(ShellQuote, AnEqualsSignIsPlainOnlyWhenTheCallerSaysSo) {
  EXPECT_TRUE(isPlainShellWord("--x=1", EqualsSign::Plain));
  EXPECT_FALSE(isPlainShellWord("--x=1", EqualsSign::Quoted));
  EXPECT_EQ(quotedIfNeeded("A=1", EqualsSign::Plain), "A=1");
  EXPECT_EQ(quotedIfNeeded("A=1", EqualsSign::Quoted), "'A=1'");
}

TEST(ShellQuote, QuotedIfNeededLeavesPlainWordsBare) {
  EXPECT_EQ(quotedIfNeeded("/opt/toolguard/bin/toolguard", EqualsSign::Plain),
            "/opt/toolguard/bin/toolguard");
  EXPECT_EQ(quotedIfNeeded("/opt/my tools/toolguard", EqualsSign::Plain),
            "'/opt/my tools/toolguard'");
  EXPECT_EQ(quotedIfNeeded("", EqualsSign::Plain), "''");
  EXPECT_EQ(quotedIfNeeded("it's", EqualsSign::Quoted), "'it'\\''s'");
  // A keyword is a plain word: a caller that writes a first word quotes it itself.
  EXPECT_EQ(quotedIfNeeded("if", EqualsSign::Quoted), "if");
}

TEST(ShellQuote, WhatIsWrittenReadsBackAsTheSameWord) {
  const std::vector<std::string> words = {"plain", "",    "a b", "it's", "'",  "''",
                                          "$(x)",  "`x`", "\\",  "a\nb", "#c", "x=1"};
  std::string text;
  for (const std::string& word : words) {
    text += (text.empty() ? "" : " ") + quotedIfNeeded(word, EqualsSign::Plain);
  }
  EXPECT_EQ(shlexSplit(text), words);
  text.clear();
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + singleQuoted(word);
  EXPECT_EQ(shlexSplit(text), words);
}

}  // namespace shell_quote_test
}  // namespace toolguard::detail
