#include <gtest/gtest.h>

#include "toolguard/rule.hpp"

namespace toolguard {
namespace wildcard_test {

TEST(ToolNameWildcard, StarMatchesAnyRun) {
  EXPECT_TRUE(toolNameMatches("filesystem_*", "filesystem_read"));
  EXPECT_TRUE(toolNameMatches("filesystem_*", "filesystem_"));
  EXPECT_FALSE(toolNameMatches("filesystem_*", "filesystem"));
  EXPECT_TRUE(toolNameMatches("mcp__github__*", "mcp__github__create_issue"));
  EXPECT_FALSE(toolNameMatches("mcp__github__*", "mcp__gitlab__create_issue"));
  EXPECT_TRUE(toolNameMatches("*", "anything"));
  EXPECT_TRUE(toolNameMatches("*_delete_*", "repo_delete_branch"));
  EXPECT_TRUE(toolNameMatches("a*b*c", "axxbyyc"));
  EXPECT_FALSE(toolNameMatches("a*b*c", "axxbyy"));
}

TEST(ToolNameWildcard, QuestionMarkMatchesExactlyOne) {
  EXPECT_TRUE(toolNameMatches("read_?", "read_a"));
  EXPECT_FALSE(toolNameMatches("read_?", "read_"));
  EXPECT_FALSE(toolNameMatches("read_?", "read_ab"));
}

TEST(ToolNameWildcard, ExactNamesAreCaseSensitive) {
  EXPECT_TRUE(toolNameMatches("Bash", "Bash"));
  EXPECT_FALSE(toolNameMatches("Bash", "bash"));
  EXPECT_FALSE(toolNameMatches("Bash", "Bash2"));
  EXPECT_FALSE(isWildcard("Bash"));
  EXPECT_TRUE(isWildcard("mcp__*"));
}

TEST(ToolNameWildcard, PathologicalPatternsStayFast) {
  // Backtracking is bounded by pattern * name: this finishes at once.
  std::string name(2000, 'a');
  EXPECT_FALSE(toolNameMatches("*a*a*a*a*a*a*a*a*b", name));
}

}  // namespace wildcard_test
}  // namespace toolguard
