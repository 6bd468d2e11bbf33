// validatePath and the resolver: symlinks, files that do not exist yet,
// refused characters and case sensitivity, on a real directory tree.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "support/temp_dir.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {
namespace {

namespace fs = std::filesystem;

// ws/ is the workspace; outside/ is next to it; links point between them.
class PathResolution : public ::testing::Test {
 protected:
  void SetUp() override {
    root = dir.path().string();
    ws = root + "/ws";
    fs::create_directories(ws + "/src");
    fs::create_directories(root + "/outside");
    fs::create_directories(root + "/ws2");
    dir.write("outside/secret.txt", "s");
    fs::create_directory_symlink("../outside", ws + "/link_out");
    fs::create_symlink(root + "/outside/not-yet.txt", ws + "/dangling");
    fs::create_symlink("loop_b", ws + "/loop_a");
    fs::create_symlink("loop_a", ws + "/loop_b");
    fs::create_directory_symlink("src", ws + "/alias");
  }

  PathValidation check(const std::string& path) const { return validatePath(ws, path, options); }
  std::string resolved(const std::string& path) const {
    PathValidation v = check(path);
    EXPECT_TRUE(v) << v.error;
    return v ? v.path->resolved : "";
  }

  testing::TempDir dir;
  std::string root;
  std::string ws;
  PathOptions options{"/home/u", CaseSensitivity::Auto, true};
};

TEST_F(PathResolution, ANewFileInTheWorkspaceResolvesToItself) {
  PathValidation v = check("src/brand-new/file.txt");
  ASSERT_TRUE(v) << v.error;
  EXPECT_EQ(v.path->lexical, ws + "/src/brand-new/file.txt");
  EXPECT_EQ(v.path->resolved, ws + "/src/brand-new/file.txt");
  EXPECT_TRUE(isWithin(v.path->resolved, ws));
}

TEST_F(PathResolution, DotDotEscapesAreNormalizedAgainstTheWorkingDirectory) {
  EXPECT_EQ(check("../outside/secret.txt").path->lexical, root + "/outside/secret.txt");
  EXPECT_EQ(check("src/../../ws2/x").path->lexical, root + "/ws2/x");
  EXPECT_FALSE(isWithin(resolved("../outside/secret.txt"), ws));
}

TEST_F(PathResolution, SymlinkedDirectoriesLeadOut) {
  PathValidation v = check("link_out/secret.txt");
  ASSERT_TRUE(v);
  EXPECT_EQ(v.path->lexical, ws + "/link_out/secret.txt");
  EXPECT_EQ(v.path->resolved, root + "/outside/secret.txt");
  // A file that does not exist yet below the link is resolved too.
  EXPECT_EQ(resolved("link_out/new/deeper.txt"), root + "/outside/new/deeper.txt");
}

TEST_F(PathResolution, ADanglingSymlinkIsFollowedToWhereItWouldWrite) {
  EXPECT_EQ(resolved("dangling"), root + "/outside/not-yet.txt");
}

TEST_F(PathResolution, SymlinksInsideTheWorkspaceStayInside) {
  EXPECT_EQ(resolved("alias/main.c"), ws + "/src/main.c");
  EXPECT_TRUE(isWithin(resolved("alias/main.c"), ws));
}

TEST_F(PathResolution, ALinkTargetWithDotDotIsResolvedPhysically) {
  fs::create_directories(ws + "/a/b");
  fs::create_directory_symlink(root + "/outside", ws + "/a/b/jump");
  // jump/.. is the parent of outside/ (the root), not ws/a/b.
  fs::create_symlink("jump/../ws2/target", ws + "/a/b/via");
  EXPECT_EQ(resolved("a/b/via"), root + "/ws2/target");
}

TEST_F(PathResolution, DotDotAfterASymlinkClimbsOutOfItsTargetAsTheKernelDoes) {
  // ws/link_out -> ../outside: link_out/../x is root/x for the kernel, ws/x by name.
  PathValidation v = check("link_out/../x");
  ASSERT_TRUE(v) << v.error;
  EXPECT_EQ(v.path->lexical, ws + "/x");
  EXPECT_EQ(v.path->resolved, root + "/x");
  EXPECT_EQ(v.path->resolved_after_normalizing, ws + "/x");
  EXPECT_TRUE(check("src/../x").path->resolved_after_normalizing.empty());
}

TEST_F(PathResolution, ALinkToANameWithAControlCharacterIsRefused) {
  fs::create_symlink(root + "/outside/evil\x1b[2J", ws + "/escape-seq");
  PathValidation v = check("escape-seq");
  EXPECT_FALSE(v);
  EXPECT_NE(v.error.find("symbolic link leads to an unacceptable path"), std::string::npos)
      << v.error;
}

TEST_F(PathResolution, SymlinkLoopsAreRefused) {
  PathValidation v = check("loop_a/x");
  EXPECT_FALSE(v);
  EXPECT_NE(v.error.find("symbolic links"), std::string::npos) << v.error;
  EXPECT_EQ(resolveSymlinks(ws + "/loop_a"), std::nullopt);
}

TEST_F(PathResolution, SiblingPrefixesAreNotInside) {
  EXPECT_FALSE(isWithin(root + "/ws2/file", ws));
  EXPECT_FALSE(isWithin("/data2", "/data"));
  EXPECT_TRUE(isWithin("/data/x", "/data/"));
}

TEST_F(PathResolution, TildeIsTheHomeDirectory) {
  EXPECT_EQ(check("~/.bashrc").path->lexical, "/home/u/.bashrc");
  EXPECT_EQ(check("~").path->lexical, "/home/u");
  EXPECT_EQ(check("~other/x").path->lexical, ws + "/~other/x");  // not expanded
}

TEST_F(PathResolution, ControlCharactersNulAndEmptyPathsAreRefused) {
  EXPECT_EQ(check("").error, "empty path");
  EXPECT_NE(check(std::string("a\0b", 3)).error.find("NUL byte at byte 1"), std::string::npos);
  EXPECT_NE(check("a\nb").error.find("0x0A at byte 1"), std::string::npos);
  EXPECT_NE(check("x\x1b[2J").error.find("0x1B"), std::string::npos);
  EXPECT_NE(check("del\x7f").error.find("0x7F"), std::string::npos);
  EXPECT_NE(check(std::string(5000, 'a')).error.find("at most 4096"), std::string::npos);
  EXPECT_FALSE(validatePath("/w\n", "x"));
  EXPECT_TRUE(check("unicode-ü-名前.txt"));
}

TEST_F(PathResolution, LexicalOnlyWhenSymlinksAreNotFollowed) {
  options.follow_symlinks = false;
  EXPECT_EQ(resolved("link_out/secret.txt"), ws + "/link_out/secret.txt");
}

TEST_F(PathResolution, CaseSensitivityIsAskedOfTheFileSystemOrSet) {
  // The test machine's temporary directory (tmpfs, ext4, overlayfs) keeps case.
  EXPECT_FALSE(isCaseInsensitiveDirectory(ws));
  EXPECT_FALSE(check("src/x").path->case_insensitive);
  options.case_sensitivity = CaseSensitivity::Insensitive;
  EXPECT_TRUE(check("src/x").path->case_insensitive);
  EXPECT_TRUE(isWithin("/Work/App/x", "/work/app", true));
  EXPECT_FALSE(isWithin("/Work/App/x", "/work/app", false));
  EXPECT_FALSE(isWithin("/work/apple", "/work/APP", true));
  EXPECT_EQ(parseCaseSensitivity("insensitive"), CaseSensitivity::Insensitive);
  EXPECT_EQ(parseCaseSensitivity("nope"), std::nullopt);
}

TEST_F(PathResolution, RelativePathsWithNoWorkingDirectoryResolveAgainstRoot) {
  EXPECT_EQ(validatePath("", "etc/passwd", options).path->lexical, "/etc/passwd");
}

}  // namespace
}  // namespace toolguard
