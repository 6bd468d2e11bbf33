// The audit's hash chain: the verifier on lines made here, the writer's
// chain through rotation and retention, and reads that stop at their limit.
#include "toolguard/audit_chain.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "audit/audit_detail.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::testing {
namespace audit_chain_test {

using nlohmann::json;
namespace fs = std::filesystem;

// A chain of `n` records after its anchor, as a writer makes it.
std::vector<std::string> chain(int n) {
  std::vector<std::string> lines;
  std::string prev(kAuditGenesisHash);
  lines.push_back(
      detail::chainedRecordText(json{{"anchor", {{"chain", "c1"}, {"seq", 0}}}}.dump(), prev));
  for (int i = 0; i < n; ++i) {
    prev = auditHash(lines.back());
    lines.push_back(detail::chainedRecordText(json{{"n", i}}.dump(), prev));
  }
  return lines;
}

AuditChainReport walk(const std::vector<std::string>& lines, const std::string& head = "") {
  AuditChainVerifier verifier(head);
  for (size_t i = 0; i < lines.size(); ++i) verifier.next(lines[i], "L" + std::to_string(i + 1));
  return verifier.finish();
}

TEST(AuditChainVerifier, AnUntouchedChainHolds) {
  const std::vector<std::string> lines = chain(5);
  AuditChainReport r = walk(lines);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.records, 6u);
  EXPECT_EQ(r.chain, "c1");
  EXPECT_EQ(r.head, auditHash(lines.back()));
  EXPECT_EQ(auditHash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(AuditChainVerifier, EditsDeletionsMovesAndInsertionsAreNamed) {
  std::vector<std::string> edited = chain(5);
  edited[2].replace(edited[2].find("\"n\":1"), 5, "\"n\":7");
  AuditChainReport r = walk(edited);
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].where, "L4");
  EXPECT_NE(r.issues[0].what.find("does not match L3"), std::string::npos);

  std::vector<std::string> deleted = chain(5);
  deleted.erase(deleted.begin() + 3);
  r = walk(deleted);
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].where, "L4");

  std::vector<std::string> moved = chain(5);
  std::swap(moved[2], moved[4]);
  r = walk(moved);
  EXPECT_FALSE(r.ok());
  bool named = false;
  for (const AuditChainIssue& i : r.issues)
    named |= i.what.find("out of order") != std::string::npos;
  EXPECT_TRUE(named);

  std::vector<std::string> inserted = chain(3);
  inserted.insert(inserted.begin() + 2, R"({"n":99})");
  r = walk(inserted);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.issues[0].where, "L3");
  EXPECT_NE(r.issues[0].what.find("no prev_hash"), std::string::npos);
}

TEST(AuditChainVerifier, AMissingStartAndACutTailAreFound) {
  std::vector<std::string> lines = chain(5);
  const std::string head = auditHash(lines[3]);
  EXPECT_TRUE(walk(lines, head).ok());
  std::vector<std::string> cut(lines.begin(), lines.begin() + 3);
  AuditChainReport r = walk(cut, head);
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].where, "head");
  std::vector<std::string> headless(lines.begin() + 2, lines.end());
  r = walk(headless);
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].where, "L1");
  EXPECT_NE(r.issues[0].what.find("start is missing"), std::string::npos);
}

class AuditChainFile : public ::testing::Test {
 protected:
  TempDir dir;
  std::string path() const { return (dir.path() / "audit.jsonl").string(); }
};

TEST_F(AuditChainFile, TheDefaultKeepsEveryRotatedFile) {
  AuditLogOptions options{path(), 1000};
  EXPECT_FALSE(options.keep_rotated.has_value());
  AuditLog log(options);
  for (int i = 0; i < 300; ++i) log.writeRecord({{"n", i}, {"pad", std::string(60, 'x')}});
  EXPECT_TRUE(fs::exists(path() + ".20"));
  EXPECT_EQ(readAuditLog(path(), {}).size(), 300u);
  AuditChainReport r = verifyAuditLog(path());
  EXPECT_TRUE(r.ok()) << r.issues.front().where << ": " << r.issues.front().what;
  EXPECT_TRUE(r.notes.empty());
}

TEST_F(AuditChainFile, TheEnvironmentSetsRotationAndRetention) {
  ::setenv("TOOLGUARD_AUDIT_MAX_BYTES", "5000", 1);
  ::setenv("TOOLGUARD_AUDIT_KEEP", "3", 1);
  AuditLogOptions o = auditLogOptionsFromEnvironment({path()});
  EXPECT_EQ(o.max_bytes, 5000u);
  EXPECT_EQ(o.keep_rotated, 3u);
  ::setenv("TOOLGUARD_AUDIT_KEEP", "all", 1);
  EXPECT_FALSE(auditLogOptionsFromEnvironment({path()}).keep_rotated.has_value());
  ::setenv("TOOLGUARD_AUDIT_KEEP", "-1", 1);
  EXPECT_THROW(auditLogOptionsFromEnvironment({path()}), AuditLogError);
  ::unsetenv("TOOLGUARD_AUDIT_MAX_BYTES");
  ::unsetenv("TOOLGUARD_AUDIT_KEEP");
}

TEST_F(AuditChainFile, ALimitedReadStopsAtItsLimitFromTheEnd) {
  {
    std::ofstream out(path());
    out << "not a record: a reader that read the whole file would report this line\n";
  }
  AuditLog log({path()});
  for (int i = 0; i < 5000; ++i) log.writeRecord({{"tool", "Bash"}, {"n", i}});
  AuditQuery last;
  last.last = 200;
  std::vector<json> records = readAuditLog(path(), last);
  ASSERT_EQ(records.size(), 200u);
  EXPECT_EQ(records.front()["n"], 4800);  // oldest first
  EXPECT_EQ(records.back()["n"], 4999);
  // Unlimited, it reaches the first line and reports it, with its number.
  std::vector<json> all = readAuditLog(path(), {});
  ASSERT_EQ(all.size(), 5001u);
  EXPECT_EQ(all.front()["line"], 1);
  // A limit larger than the log: everything, the unreadable line named by its number.
  last.last = 10000;
  records = readAuditLog(path(), last);
  ASSERT_EQ(records.size(), 5001u);
  EXPECT_EQ(records.front()["line"], 1);
  EXPECT_EQ(records.back()["n"], 4999);
}

TEST_F(AuditChainFile, ACutShortLastLineBecomesALineOfItsOwn) {
  {
    AuditLog log({path()});
    log.writeRecord({{"n", 1}});
  }
  {
    std::ofstream out(path(), std::ios::app);
    out << R"({"n":2,"cut)";  // a write that died half-way
  }
  AuditLog log({path()});
  log.writeRecord({{"n", 3}});
  std::ifstream in(path());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[2], R"({"n":2,"cut)");
  AuditChainReport r = verifyAuditLog(path());
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].where, path() + ":3");  // reported, and the chain goes on past it
}

}  // namespace audit_chain_test
}  // namespace toolguard::testing
