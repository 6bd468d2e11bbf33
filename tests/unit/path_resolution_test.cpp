// resolvePath and the resolver: symlinks, files that do not exist yet,
// refused characters and case sensitivity; validatePath's containment check
// used the way embedders write it; on a real directory tree.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "support/temp_dir.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {
namespace path_resolution_test {

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

  PathValidation check(const std::string& path) const { return resolvePath(ws, path, options); }
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
  EXPECT_FALSE(resolvePath("/w\n", "x"));
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
  EXPECT_EQ(resolvePath("", "etc/passwd", options).path->lexical, "/etc/passwd");
}

// validatePath used as the seed framework's callers write it:
// `if (!validatePath(base, p)) reject;`.
bool rejected(const std::string& base, const std::string& path, const PathOptions& options) {
  if (!validatePath(base, path, options)) return true;
  return false;
}

TEST_F(PathResolution, ValidatePathRejectsEveryPathThatEscapesTheBase) {
  EXPECT_TRUE(rejected(ws, "../../etc/passwd", options));
  EXPECT_TRUE(rejected(ws, "/etc/passwd", options));
  EXPECT_TRUE(rejected(ws, "link_out/secret.txt", options));  // a symlink inside ws leads out
  EXPECT_TRUE(rejected(ws, "link_out/new/file.txt", options));
  EXPECT_TRUE(rejected(ws, "dangling", options));  // a dangling link to a file outside
  EXPECT_TRUE(rejected(ws, "../ws2/x", options));  // a sibling sharing the prefix
  EXPECT_TRUE(rejected(ws, "src/../../ws2/x", options));
  EXPECT_TRUE(rejected(ws, "~/.bashrc", options));
  EXPECT_TRUE(rejected(ws, "link_out/../x", options));  // the kernel climbs out of the target
  EXPECT_TRUE(rejected(ws, "../../../../../../../../../../etc/passwd", options));
  PathValidation v = validatePath(ws, "../../etc/passwd", options);
  EXPECT_FALSE(v.path.has_value());
  EXPECT_EQ(v.error, "../../etc/passwd escapes " + ws + " (it leads to " +
                         fs::path(root).parent_path().string() + "/etc/passwd)");
  EXPECT_EQ(validatePath(ws, "link_out/secret.txt", options).error,
            "link_out/secret.txt escapes " + ws + " (it leads to " + root + "/outside/secret.txt)");
}

TEST_F(PathResolution, ValidatePathAcceptsPathsInsideTheBaseExistingOrNot) {
  EXPECT_FALSE(rejected(ws, "src/a.c", options));  // does not exist yet
  EXPECT_FALSE(rejected(ws, "src/brand-new/deeper/file.txt", options));
  EXPECT_FALSE(rejected(ws, ws + "/src/a.c", options));
  EXPECT_FALSE(rejected(ws, "alias/main.c", options));  // a link that stays inside
  EXPECT_FALSE(rejected(ws, "src/../README.md", options));
  EXPECT_FALSE(rejected(ws, ".", options));
  PathValidation v = validatePath(ws, "src/a.c", options);
  ASSERT_TRUE(v) << v.error;
  EXPECT_EQ(v.path->resolved, ws + "/src/a.c");
  // What resolvePath refuses, validatePath refuses too.
  EXPECT_TRUE(rejected(ws, "loop_a/x", options));
  EXPECT_TRUE(rejected(ws, "", options));
  EXPECT_TRUE(rejected(ws, "a\nb", options));
}

TEST_F(PathResolution, ValidatePathChecksTheFormANormalizingToolWouldOpen) {
  // d -> src/deep and lo -> ../outside. The kernel reads d/../lo/f as
  // ws/src/lo/f (inside); a tool that removes `..` by name first opens
  // ws/lo/f, which the link takes outside: refused.
  fs::create_directories(ws + "/src/deep");
  fs::create_directories(ws + "/src/lo");
  fs::create_directory_symlink("src/deep", ws + "/d");
  fs::create_directory_symlink("../outside", ws + "/lo");
  PathValidation resolved_only = resolvePath(ws, "d/../lo/f", options);
  ASSERT_TRUE(resolved_only) << resolved_only.error;
  EXPECT_EQ(resolved_only.path->lexical, ws + "/lo/f");
  EXPECT_EQ(resolved_only.path->resolved, ws + "/src/lo/f");
  EXPECT_EQ(resolved_only.path->resolved_after_normalizing, root + "/outside/f");
  EXPECT_TRUE(rejected(ws, "d/../lo/f", options));
}

TEST_F(PathResolution, ValidatePathNeedsABaseAndFollowsALinkedBase) {
  EXPECT_TRUE(rejected("", "src/a.c", options));  // no base contains nothing
  EXPECT_EQ(validatePath("", "x", options).error, "no base directory to keep the path in");
  EXPECT_TRUE(rejected("/w\n", "x", options));
  // The base reached through a symlink: paths inside its target are inside.
  fs::create_directory_symlink("ws", root + "/ws_link");
  EXPECT_FALSE(rejected(root + "/ws_link", "src/a.c", options));
  EXPECT_FALSE(rejected(root + "/ws_link", ws + "/src/a.c", options));
  EXPECT_TRUE(rejected(root + "/ws_link", "link_out/secret.txt", options));
  EXPECT_TRUE(rejected(root + "/ws_link", "../outside/secret.txt", options));
  EXPECT_FALSE(rejected("/", "/etc/passwd", options));  // "/" contains everything
}

}  // namespace path_resolution_test
}  // namespace toolguard
