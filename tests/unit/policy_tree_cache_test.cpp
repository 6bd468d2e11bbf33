// The user's policy files' YAML trees kept between processes: used only for
// the file's exact text, only from an entry this user alone can write, never
// for the managed layer or another user's file; a stale or damaged entry is
// a miss, and a decision is the same with or without the cache.
#include "policy/policy_tree_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "policy/doc_node_yaml.hpp"
#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace policy_tree_cache_test {

namespace fs = std::filesystem;
using detail::PolicyTreeCache;
using testing::TempDir;

constexpr const char* kDenyWebFetch =
    "default: ask\nrules:\n  - {id: no-fetch, tool: WebFetch, verdict: deny}\n";
constexpr const char* kAllowWebFetch =
    "default: ask\nrules:\n  - {id: fetch, tool: WebFetch, verdict: allow}\n";

struct CacheSetup {
  TempDir dir;
  fs::path cacheDir() const { return dir.path() / "home" / "cache" / "policy-trees"; }
  fs::path userFile() const { return dir.path() / "user" / "policy.yaml"; }
  PolicySources sources() const {
    PolicySources s;
    s.builtin = false;
    s.user_dir = dir.path() / "user";
    s.managed_dir = dir.path() / "managed";
    s.tree_cache_dir = cacheDir();
    return s;
  }
  Verdict webFetch(const PolicySources& s) const {
    return Engine(loadPolicy(s))
        .decide(testing::makeCall("WebFetch", {{"url", "https://x"}}, "/w"))
        .verdict;
  }
  fs::path entry() const { return PolicyTreeCache(cacheDir()).entryPath(userFile()); }
  // An entry that says `tree_text`'s tree for the text of `text`, written as
  // this user could write it.
  void forge(const std::string& text, const std::string& tree_text) const {
    const std::string bytes =
        PolicyTreeCache::encodeEntry(text, detail::parseYamlDocument(tree_text, "forged"));
    ASSERT_FALSE(bytes.empty());
    fs::create_directories(cacheDir());
    std::ofstream(entry(), std::ios::binary | std::ios::trunc) << bytes;
    ::chmod(entry().c_str(), 0600);
  }
};

TEST(PolicyTreeCache, AFileIsParsedOnceAndItsTreeReadBackAfter) {
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
  ASSERT_TRUE(fs::exists(s.entry()));
  struct stat st {};
  ASSERT_EQ(::stat(s.cacheDir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(s.entry().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);  // from the entry
}

TEST(PolicyTreeCache, AnEntryThisUserAloneCanWriteIsTrustedLikeTheFileItself) {
  // The boundary, shown: whoever can write the entry could have edited the
  // file. (The built-in rules deny every write into toolguard's home.)
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  s.forge(kDenyWebFetch, kAllowWebFetch);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Allow);
}

TEST(PolicyTreeCache, AnEntryForAnyOtherTextIsNotUsed) {
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  s.forge("default: ask\n", kAllowWebFetch);  // an older text of the file
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
  // ... and is replaced by the current one.
  s.dir.write("user/policy.yaml", kAllowWebFetch);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Allow);
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
}

TEST(PolicyTreeCache, AnEntryOthersCouldWriteIsNotUsed) {
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  s.forge(kDenyWebFetch, kAllowWebFetch);
  ::chmod(s.entry().c_str(), 0620);  // group-writable
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);

  s.forge(kDenyWebFetch, kAllowWebFetch);
  ::chmod(s.cacheDir().c_str(), 0777);  // a directory anybody can write into
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
  ::chmod(s.cacheDir().c_str(), 0700);

  // A symbolic link to an entry somewhere else.
  s.forge(kDenyWebFetch, kAllowWebFetch);
  const fs::path elsewhere = s.dir.path() / "elsewhere.tree";
  fs::rename(s.entry(), elsewhere);
  fs::create_symlink(elsewhere, s.entry());
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);

  // A cache directory that is a symbolic link.
  fs::remove_all(s.cacheDir());
  const fs::path other_dir = s.dir.path() / "other-cache";
  fs::create_directories(other_dir);
  ::chmod(other_dir.c_str(), 0700);
  fs::create_symlink(other_dir, s.cacheDir());
  s.forge(kDenyWebFetch, kAllowWebFetch);  // written through the link
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
}

TEST(PolicyTreeCache, ADamagedEntryIsAMissAndIsWrittenAgain) {
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  s.forge(kDenyWebFetch, kAllowWebFetch);
  std::string bytes;
  {
    std::ifstream in(s.entry(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (const std::string& damaged :
       {bytes.substr(0, bytes.size() - 3), bytes.substr(0, bytes.size() / 2), std::string("x"),
        std::string(), [&] {
          std::string flipped = bytes;
          flipped[flipped.size() - 20] ^= 0x40;  // inside the tree
          return flipped;
        }()}) {
    { std::ofstream(s.entry(), std::ios::binary | std::ios::trunc) << damaged; }
    EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny) << damaged.size();
  }
  // The last miss wrote the true tree back.
  std::ifstream in(s.entry(), std::ios::binary);
  const std::string rewritten((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(rewritten, PolicyTreeCache::encodeEntry(kDenyWebFetch,
                                                    detail::parseYamlDocument(kDenyWebFetch, "x")));
}

TEST(PolicyTreeCache, ManagedFilesAreNeverCached) {
  CacheSetup s;
  s.dir.write("managed/policy.yaml", kDenyWebFetch);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
  EXPECT_FALSE(fs::exists(s.cacheDir()) && !fs::is_empty(s.cacheDir()));
  // Nor read: a forged entry for the managed file changes nothing.
  const fs::path managed = s.dir.path() / "managed" / "policy.yaml";
  fs::create_directories(s.cacheDir());
  std::ofstream(PolicyTreeCache(s.cacheDir()).entryPath(managed), std::ios::binary)
      << PolicyTreeCache::encodeEntry(kDenyWebFetch,
                                      detail::parseYamlDocument(kAllowWebFetch, "forged"));
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
}

TEST(PolicyTreeCache, AFileOfAnotherUserIsNeverCached) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  ASSERT_EQ(::chown(s.userFile().c_str(), 65534, 65534), 0);
  s.forge(kDenyWebFetch, kAllowWebFetch);
  EXPECT_EQ(s.webFetch(s.sources()), Verdict::Deny);
  std::ifstream in(s.entry(), std::ios::binary);
  const std::string kept((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(kept, PolicyTreeCache::encodeEntry(kDenyWebFetch,
                                               detail::parseYamlDocument(kAllowWebFetch, "forged")))
      << "the forged entry was neither used nor replaced";
}

TEST(PolicyTreeCache, EveryPolicyOfTheRepositoryDecidesAlikeWithAndWithoutIt) {
  CacheSetup s;
  for (const auto& entry : fs::directory_iterator(fs::path(TOOLGUARD_SOURCE_DIR) / "policies")) {
    fs::remove_all(s.dir.path() / "user");
    fs::create_directories(s.dir.path() / "user");
    fs::copy_file(entry.path(), s.userFile());
    PolicySources plain = s.sources();
    plain.tree_cache_dir.clear();
    const Engine expected(loadPolicy(plain));
    (void)loadPolicy(s.sources());                 // writes the entry
    const Engine cached(loadPolicy(s.sources()));  // reads it
    for (const auto& [tool, args] : std::vector<std::pair<std::string, nlohmann::json>>{
             {"Bash", {{"command", "rm -rf ~"}}},
             {"Bash", {{"command", "git status"}}},
             {"Write", {{"file_path", ".env"}, {"content", "x"}}},
             {"Read", {{"file_path", "/etc/shadow"}}},
             {"WebFetch", {{"url", "https://example.com"}}},
             {"delete_file", {{"path", "a.txt"}}}}) {
      const ToolCall call = testing::makeCall(tool, args, "/w");
      const Decision a = expected.decide(call), b = cached.decide(call);
      EXPECT_EQ(a.verdict, b.verdict) << entry.path() << " " << tool;
      EXPECT_EQ(a.rule_id, b.rule_id) << entry.path() << " " << tool;
      EXPECT_EQ(a.source.line, b.source.line) << entry.path() << " " << tool;
    }
  }
}

TEST(PolicyTreeCache, ATreeItsEntryCouldNotHoldIsNotWritten) {
  // Aliases expand a small text into a large tree; its entry would be
  // refused when read, so writing it on every check would only cost.
  CacheSetup s;
  std::string text = "x-long: &long \"" + std::string(1000, 'a') + "\"\nx-uses: [";
  for (int i = 0; i < 500; ++i) text += (i ? ", *long" : "*long");
  text += "]\n";
  text += kDenyWebFetch;
  s.dir.write("user/policy.yaml", text);
  PolicySources sources = s.sources();
  EXPECT_THROW(loadPolicy(sources), PolicyError);  // x-long is no policy key: still reported
  EXPECT_FALSE(fs::exists(s.entry()));
}

TEST(PolicyTreeCache, ARelativeCacheDirectoryIsNeverUsed) {
  CacheSetup s;
  s.dir.write("user/policy.yaml", kDenyWebFetch);
  PolicySources sources = s.sources();
  sources.tree_cache_dir = "relative/cache";
  EXPECT_EQ(s.webFetch(sources), Verdict::Deny);
  EXPECT_FALSE(fs::exists("relative/cache"));
}

}  // namespace policy_tree_cache_test
}  // namespace toolguard
