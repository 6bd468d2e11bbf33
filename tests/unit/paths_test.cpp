#include "toolguard/paths.hpp"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include "core/glob.hpp"

namespace toolguard {
namespace paths_test {

TEST(NormalizePath, RelativePathsResolveAgainstTheCallsCwd) {
  EXPECT_EQ(normalizePath("src/main.c", "/work/app", "/home/u"), "/work/app/src/main.c");
  EXPECT_EQ(normalizePath("./a/./b", "/w", "/home/u"), "/w/a/b");
  EXPECT_EQ(normalizePath("../../etc/passwd", "/home/u", "/home/u"), "/etc/passwd");
  EXPECT_EQ(normalizePath("../../../../../etc", "/a", "/h"), "/etc");
  EXPECT_EQ(normalizePath("/abs//x/../y/", "/w", "/h"), "/abs/y");
}

TEST(NormalizePath, TildeIsTheHomeDirectory) {
  EXPECT_EQ(normalizePath("~", "/w", "/home/u"), "/home/u");
  EXPECT_EQ(normalizePath("~/.bashrc", "/w", "/home/u"), "/home/u/.bashrc");
  EXPECT_EQ(normalizePath("~other/x", "/w", "/home/u"), "/w/~other/x");
  EXPECT_EQ(normalizePath("", "/w", "/home/u"), "");
}

TEST(IsWithin, ComparesWholeComponents) {
  EXPECT_TRUE(isWithin("/data", "/data"));
  EXPECT_TRUE(isWithin("/data/x", "/data"));
  EXPECT_TRUE(isWithin("/data/x", "/data/"));
  EXPECT_FALSE(isWithin("/data2", "/data"));
  EXPECT_FALSE(isWithin("/data2/x", "/data"));
  EXPECT_FALSE(isWithin("/dat", "/data"));
  EXPECT_TRUE(isWithin("/anything", "/"));
}

bool pathGlob(const std::string& glob, const std::string& path) {
  return RE2::FullMatch(path, RE2(detail::pathGlobToRegex(glob, "/home/u")));
}

TEST(PathGlob, RelativePatternsMatchAtAnyDepth) {
  EXPECT_TRUE(pathGlob(".ssh/**", "/home/u/.ssh/id_rsa"));
  EXPECT_TRUE(pathGlob(".ssh/**", "/home/u/.ssh"));
  EXPECT_TRUE(pathGlob("*.pem", "/srv/certs/server.pem"));
  EXPECT_FALSE(pathGlob("*.pem", "/srv/certs/server.pem.txt"));
  EXPECT_TRUE(pathGlob(".env", "/w/.env"));
  EXPECT_FALSE(pathGlob(".env", "/w/.envrc"));
  EXPECT_TRUE(pathGlob(".env.*", "/w/api/.env.local"));
}

TEST(PathGlob, AnchoredPatternsAndStars) {
  EXPECT_TRUE(pathGlob("/etc/**", "/etc/passwd"));
  EXPECT_TRUE(pathGlob("/etc/**", "/etc/cron.d/job"));
  EXPECT_FALSE(pathGlob("/etc/**", "/home/etc/passwd"));
  EXPECT_TRUE(pathGlob("/src/*.c", "/src/a.c"));
  EXPECT_FALSE(pathGlob("/src/*.c", "/src/sub/a.c"));
  EXPECT_TRUE(pathGlob("/src/**/*.c", "/src/a.c"));
  EXPECT_TRUE(pathGlob("/src/**/*.c", "/src/x/y/a.c"));
  EXPECT_TRUE(pathGlob("~/.bashrc", "/home/u/.bashrc"));
  EXPECT_FALSE(pathGlob("~/.bashrc", "/root/.bashrc"));
  EXPECT_TRUE(pathGlob("id_rsa*", "/home/u/.ssh/id_rsa.pub"));
  EXPECT_TRUE(pathGlob("/a/[bc]/d", "/a/c/d"));
  EXPECT_FALSE(pathGlob("/a/[!bc]/d", "/a/c/d"));
}

TEST(PathGlob, TheHomeDirectoryIsNormalizedAndLiteral) {
  auto match = [](const std::string& home, const std::string& glob, const std::string& path) {
    return RE2::FullMatch(path, RE2(detail::pathGlobToRegex(glob, home)));
  };
  EXPECT_TRUE(match("/home/u/", "~/.bashrc", "/home/u/.bashrc"));
  EXPECT_TRUE(match("/home/u/", "~/.config/toolguard/**", "/home/u/.config/toolguard/a.yaml"));
  EXPECT_TRUE(match("/", "~/.bashrc", "/.bashrc"));
  EXPECT_TRUE(match("/home/a+b[1]", "~/.bashrc", "/home/a+b[1]/.bashrc"));
  EXPECT_FALSE(match("/home/a+b[1]", "~/.bashrc", "/home/aab1/.bashrc"));
  EXPECT_FALSE(match("/home/*", "~/.bashrc", "/home/other/.bashrc"));
  EXPECT_TRUE(match("/home/u", "~", "/home/u"));
}

TEST(PathGlob, PosixClassesInBrackets) {
  EXPECT_TRUE(pathGlob("/tmp/[[:alpha:]]", "/tmp/x"));
  EXPECT_FALSE(pathGlob("/tmp/[[:alpha:]]", "/tmp/1"));
  EXPECT_TRUE(pathGlob("/tmp/[![:digit:]]x", "/tmp/ax"));
}

TEST(IsWithin, AnEmptyRootContainsNothing) {
  EXPECT_FALSE(isWithin("/etc/passwd", ""));
  EXPECT_FALSE(isWithin("", "/"));
}

TEST(TextGlob, StarCrossesSlashesAndSpecialsAreLiteral) {
  auto match = [](const std::string& g, const std::string& s) {
    return RE2::FullMatch(s, RE2(detail::textGlobToRegex(g)));
  };
  EXPECT_TRUE(match("https://example.com/*", "https://example.com/a/b?c=1"));
  EXPECT_FALSE(match("https://example.com/*", "https://example.org/"));
  EXPECT_TRUE(match("a.b", "a.b"));
  EXPECT_FALSE(match("a.b", "axb"));
  EXPECT_TRUE(match("(x)+", "(x)+"));
}

}  // namespace paths_test
}  // namespace toolguard
