// A path glob's required literal (core/glob.hpp) lets a matcher say "no"
// without compiling the glob's expression: every path the expression matches
// must hold the literal. Checked on random globs and paths over a small
// alphabet (so that matches are frequent), with and without case folding.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/glob.hpp"
#include "paths/path_glob_set.hpp"

namespace toolguard::detail {
namespace glob_literal_test {

TEST(GlobLiteral, TheLongestRunTheGlobRequires) {
  EXPECT_EQ(requiredPathGlobLiteral("**/.ssh/**", "/home/u"), ".ssh");
  EXPECT_EQ(requiredPathGlobLiteral("~/.aws/credentials", "/home/u"), "/home/u/.aws/credentials");
  EXPECT_EQ(requiredPathGlobLiteral("~", "/home/u"), "/home/u");
  EXPECT_EQ(requiredPathGlobLiteral("*.pem", "/home/u"), ".pem");
  EXPECT_EQ(requiredPathGlobLiteral("/etc/**", "/home/u"), "/etc");  // "/etc" itself matches
  EXPECT_EQ(requiredPathGlobLiteral("src/[ab]*.c", "/home/u"), "src/");
  EXPECT_EQ(requiredPathGlobLiteral("a\\*b", "/home/u"), "a*b");
  EXPECT_EQ(requiredPathGlobLiteral("x[ab", "/home/u"), "x[ab");  // an unclosed [ is literal
  EXPECT_EQ(requiredPathGlobLiteral("a\\/**", "/home/u"), "");    // `a\/x` and `a\` both match
  EXPECT_EQ(requiredPathGlobLiteral("**/**/b", "/home/u"), "b");  // RE2 matches a bare `b`
  EXPECT_EQ(requiredPathGlobLiteral("*", "/home/u"), "");
  EXPECT_EQ(requiredPathGlobLiteral("**/*", "/home/u"), "");
}

TEST(GlobLiteral, TheFilterSaysNoOnlyWhenNoLiteralIsThere) {
  const GlobLiteralFilter filter({".ssh", ".pem"});
  EXPECT_FALSE(filter.mayMatch("/w/src/a.cpp", false));
  EXPECT_TRUE(filter.mayMatch("/home/u/.ssh/id_rsa", false));
  EXPECT_FALSE(filter.mayMatch("/home/u/.SSH/id_rsa", false));
  EXPECT_TRUE(filter.mayMatch("/home/u/.SSH/id_rsa", true));
  // RE2 folds s to the long s (U+017F): a name with any non-ASCII byte is "maybe".
  EXPECT_TRUE(filter.mayMatch("/home/u/.\xc5\xbfsh/id_rsa", true));
  EXPECT_TRUE(GlobLiteralFilter({".ssh", ""}).mayMatch("/anything", false));  // one needs none
  EXPECT_TRUE(GlobLiteralFilter().mayMatch("/anything", false));
}

std::string pick(std::mt19937& random, const std::vector<std::string>& parts, int most) {
  std::string out;
  const int count = std::uniform_int_distribution<int>(1, most)(random);
  for (int i = 0; i < count; ++i) {
    out += parts[std::uniform_int_distribution<size_t>(0, parts.size() - 1)(random)];
  }
  return out;
}

std::string asciiLower(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return text;
}

TEST(GlobLiteral, EveryMatchHoldsTheLiteral) {
  const std::vector<std::string> glob_parts = {"a", "b",   "A",    "/",    ".",   "*",
                                               "?", "**",  "[ab]", "[!a]", "\\*", "~/",
                                               "[", "/**", "**/",  "\\/",  "\\"};
  const std::vector<std::string> path_parts = {"a", "b", "A", "B", "/", ".", "*", "[", "ab", "/h"};
  const std::string home = "/h";
  std::mt19937 random(20261125);
  int matches = 0, checked = 0;
  for (int g = 0; g < 1500; ++g) {
    const std::string glob = pick(random, glob_parts, 5);
    const std::string literal = requiredPathGlobLiteral(glob, home);
    if (literal.empty()) continue;
    RE2::Options options;
    options.set_log_errors(false);
    const RE2 exact(pathGlobToRegex(glob, home), options);
    const RE2 folded("(?i)" + pathGlobToRegex(glob, home), options);
    ASSERT_TRUE(exact.ok()) << glob;
    const GlobLiteralFilter filter({literal});
    for (int p = 0; p < 200; ++p) {
      const std::string path = "/" + pick(random, path_parts, 8);
      ++checked;
      if (RE2::FullMatch(path, exact)) {
        ++matches;
        ASSERT_NE(path.find(literal), std::string::npos) << glob << " matched " << path;
        ASSERT_TRUE(filter.mayMatch(path, false)) << glob << " " << path;
      }
      if (RE2::FullMatch(path, folded)) {
        ASSERT_NE(asciiLower(path).find(asciiLower(literal)), std::string::npos)
            << glob << " matched " << path << " ignoring case";
        ASSERT_TRUE(filter.mayMatch(path, true)) << glob << " " << path;
      }
    }
  }
  // The check means something only when many random paths matched.
  EXPECT_GT(matches, 2000) << "of " << checked;
  std::cout << matches << " matches of " << checked << " pairs\n";
}

// The whole set against RE2, names and globs outside ASCII included (RE2
// folds the Kelvin sign to k and the long s to s; it reads names as UTF-8).
TEST(GlobSet, MatchesAsTheWholeExpressionDoes) {
  const std::vector<std::string> glob_parts = {"a",        "k",   "s",   "/",    ".",
                                               "*",        "?",   "**",  "[ks]", "\xE2\x84\xAA",
                                               "\xC5\xBF", "/**", "**/", ".md"};
  const std::vector<std::string> path_parts = {
      "a", "k", "K", "s", "/", ".", "\xE2\x84\xAA", "\xC5\xBF", "\xFF", ".md", "ab"};
  std::mt19937 random(7);
  int matches = 0;
  for (int g = 0; g < 600; ++g) {
    std::vector<std::string> globs = {pick(random, glob_parts, 4), pick(random, glob_parts, 3)};
    const PathGlobSet set(globs, "/h");
    RE2::Options options;
    options.set_log_errors(false);
    options.set_dot_nl(true);
    const std::string pattern = "(?:(?:" + pathGlobToRegex(globs[0], "/h") +
                                ")|(?:" + pathGlobToRegex(globs[1], "/h") + "))";
    const RE2 exact(pattern, options);
    options.set_case_sensitive(false);
    const RE2 folded(pattern, options);
    if (!exact.ok()) continue;
    for (int p = 0; p < 100; ++p) {
      const std::string path = "/" + pick(random, path_parts, 6);
      const bool want = RE2::FullMatch(path, exact);
      matches += want ? 1 : 0;
      ASSERT_EQ(set.matches(path, false), want) << globs[0] << " | " << globs[1] << " " << path;
      ASSERT_EQ(set.matches(path, true), RE2::FullMatch(path, folded))
          << globs[0] << " | " << globs[1] << " " << path << " ignoring case";
    }
  }
  EXPECT_GT(matches, 300);
}

// A set matched often keeps RE2's recent answers; each set gets only its
// own, also when a set made later sits where a gone one was, and with case
// folded or not.
TEST(GlobSet, WarmSetsAreAnsweredOnlyWhatTheirOwnGlobsSay) {
  const std::vector<std::vector<std::string>> glob_lists = {
      {"~/.ssh/**", "**/.env"}, {"/w/**"}, {"*.md", "/etc/*"}, {"**/a.*"}, {"/H/**"}};
  const std::vector<std::string> names = {"/h/a.md", "/h/.ssh/id_rsa", "/w/src/a.cpp", "/h/.env",
                                          "/w/.env", "/etc/passwd",    "/h/A.MD",      "/w/x"};
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  auto expression = [&](const std::vector<std::string>& globs, bool fold) {
    std::string pattern;
    for (const std::string& g : globs) {
      pattern += (pattern.empty() ? "(?:" : "|(?:") + pathGlobToRegex(g, "/h") + ")";
    }
    RE2::Options o = options;
    o.set_case_sensitive(!fold);
    return std::make_unique<RE2>(pattern, o);
  };
  std::mt19937 random(11);
  for (int round = 0; round < 30; ++round) {
    // Two sets at once, both gone at the round's end.
    const std::vector<std::string>& first = glob_lists[random() % glob_lists.size()];
    const std::vector<std::string>& second = glob_lists[random() % glob_lists.size()];
    const PathGlobSet one(first, "/h");
    const PathGlobSet two(second, "/h");
    const auto one_exact = expression(first, false), one_folded = expression(first, true);
    const auto two_exact = expression(second, false), two_folded = expression(second, true);
    for (std::uint32_t i = 0; i < PathGlobSet::kWarmUses + 200; ++i) {
      const std::string& name = names[random() % names.size()];
      ASSERT_EQ(one.matches(name, false), RE2::FullMatch(name, *one_exact)) << round << name;
      ASSERT_EQ(two.matches(name, false), RE2::FullMatch(name, *two_exact)) << round << name;
      ASSERT_EQ(one.matches(name, true), RE2::FullMatch(name, *one_folded)) << round << name;
      ASSERT_EQ(two.matches(name, true), RE2::FullMatch(name, *two_folded)) << round << name;
    }
  }
}

TEST(GlobSuffix, OnlyNameEndingGlobsAreTakenAndTheyMatchAsRe2Does) {
  EXPECT_EQ(suffixOfNameGlob("*.md"), ".md");
  EXPECT_EQ(suffixOfNameGlob("**/*.cpp"), ".cpp");
  EXPECT_EQ(suffixOfNameGlob("*~"), "~");
  for (const char* other :
       {"*", "a*.md", "*.m?", "*.[ch]", "*/x", "/*.md", "~/*.md", "**/**/*.md", "*.md*", "*\\*"}) {
    EXPECT_EQ(suffixOfNameGlob(other), std::nullopt) << other;
  }
  const std::vector<std::string> parts = {"a", "b", "A", ".", "~", "-"};
  const std::vector<std::string> path_parts = {"a", "b", "A", "B", "/", ".", "~", "-", "/a.", "ab"};
  std::mt19937 random(11);
  int matches = 0;
  for (int g = 0; g < 400; ++g) {
    const std::string glob = (g % 2 ? "**/*" : "*") + pick(random, parts, 3);
    const std::optional<std::string> suffix = suffixOfNameGlob(glob);
    ASSERT_TRUE(suffix) << glob;
    const RE2 exact(pathGlobToRegex(glob, "/h"));
    const RE2 folded("(?i)" + pathGlobToRegex(glob, "/h"));
    for (int p = 0; p < 200; ++p) {
      const std::string path = "/" + pick(random, path_parts, 7);
      const bool matched = RE2::FullMatch(path, exact);
      matches += matched ? 1 : 0;
      ASSERT_EQ(lastComponentEndsWith(path, *suffix, false), matched) << glob << " " << path;
      ASSERT_EQ(lastComponentEndsWith(path, *suffix, true), RE2::FullMatch(path, folded))
          << glob << " " << path << " ignoring case";
    }
  }
  EXPECT_GT(matches, 1000);
}

}  // namespace glob_literal_test
}  // namespace toolguard::detail
