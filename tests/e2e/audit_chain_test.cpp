// The audit's hash chain through the real binary: `toolguard check` writes
// chained records, `toolguard audit verify` holds on an untouched log and
// names each record an attacker with write access to the files edited,
// deleted, moved, cut from the end, or the rotated file they dropped.
#include <fstream>
#include <functional>

#include "e2e/cli_fixture.hpp"

namespace toolguard::testing {
namespace audit_chain_test {

using nlohmann::json;
namespace fs = std::filesystem;

class AuditChain : public Cli {
 protected:
  std::string home() const { return (dir.path() / "tg").string(); }
  std::string log() const { return home() + "/audit.jsonl"; }

  // `count` decisions through the hook, with the rotation settings `extra`.
  void decide(int count, const std::map<std::string, std::string>& extra = {}) const {
    std::map<std::string, std::string> environment = env();
    for (const auto& [k, v] : extra) environment[k] = v;
    std::string batch;
    for (int i = 0; i < count; ++i) {
      batch += json{{"tool", "Bash"},
                    {"args", {{"command", "echo " + std::to_string(i)}}},
                    {"context", {{"cwd", "/tmp"}}}}
                   .dump() +
               "\n";
    }
    // One process per call, as a hook runs, for the first few; then a batch.
    for (int i = 0; i < std::min(count, 3); ++i) {
      RunResult r =
          runBinary(TOOLGUARD_BINARY, {"check", "--home", home()},
                    batch.substr(0, batch.find('\n') + 1), environment, dir.path().string());
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    if (count > 3) {
      RunResult r = runBinary(TOOLGUARD_BINARY, {"check", "--home", home(), "--batch"}, batch,
                              environment, dir.path().string());
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }

  RunResult verify(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"audit", "verify", "--home", home()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }

  static std::vector<std::string> lines(const std::string& file) {
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
  static void rewrite(const std::string& file, const std::vector<std::string>& lines) {
    std::ofstream out(file, std::ios::trunc);
    for (const std::string& line : lines) out << line << "\n";
  }
  // Writes `count` decisions, changes the log's lines by hand with `edit`,
  // and verifies the log.
  RunResult verifyAfterEditing(int count,
                               const std::function<void(std::vector<std::string>&)>& edit,
                               std::vector<std::string> extra = {}) const {
    decide(count);
    std::vector<std::string> l = lines(log());
    edit(l);
    rewrite(log(), l);
    return verify(std::move(extra));
  }
};

TEST_F(AuditChain, EveryRecordLinksToTheOneBeforeAndVerifyHolds) {
  decide(10);
  std::vector<std::string> l = lines(log());
  ASSERT_EQ(l.size(), 1u + 3 + 10);  // the anchor, three hook calls, a batch of ten
  const json anchor = json::parse(l[0]);
  EXPECT_EQ(anchor["anchor"]["seq"], 0);
  EXPECT_EQ(anchor["prev_hash"], std::string(64, '0'));
  for (size_t i = 1; i < l.size(); ++i) {
    EXPECT_EQ(json::parse(l[i])["prev_hash"].get<std::string>().size(), 64u) << l[i];
  }
  RunResult r = verify();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verified 14 records"), std::string::npos) << r.out;
  // The anchor is not a decision: the pages never show it.
  r = run({"audit", "query", "--home", home(), "--json"});
  EXPECT_EQ(json::parse(r.out).size(), 13u) << r.out;
}

TEST_F(AuditChain, AnEditedRecordIsNamedByFileAndLine) {
  RunResult r = verifyAfterEditing(6, [](std::vector<std::string>& l) {
    l[4].replace(l[4].find("\"allow\""), 7, "\"deny\"");  // line 5
  });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  // The break shows at the record after it, which names the edited one.
  EXPECT_NE(r.out.find(log() + ":6: prev_hash does not match " + log() + ":5"), std::string::npos)
      << r.out;
}

TEST_F(AuditChain, ADeletedRecordIsNamed) {
  RunResult r = verifyAfterEditing(6, [](std::vector<std::string>& l) { l.erase(l.begin() + 3); },
                                   {"--json"});  // line 4
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["ok"], false);
  ASSERT_EQ(report["issues"].size(), 1u) << r.out;
  EXPECT_EQ(report["issues"][0]["where"], log() + ":4");
}

TEST_F(AuditChain, ReorderedRecordsAreNamed) {
  RunResult r = verifyAfterEditing(6, [](std::vector<std::string>& l) { std::swap(l[3], l[4]); });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find(log() + ":5: out of order: it follows " + log() + ":3"), std::string::npos)
      << r.out;
}

TEST_F(AuditChain, ARecordAddedByHandIsNamed) {
  RunResult r = verifyAfterEditing(4, [](std::vector<std::string>& l) {
    json forged = json::parse(l[2]);
    forged.erase("prev_hash");
    forged["verdict"] = "allow";
    l.insert(l.begin() + 3, forged.dump());
  });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find(log() + ":4: has no prev_hash"), std::string::npos) << r.out;
}

TEST_F(AuditChain, TheTailCutOffIsFoundWithTheHeadNotedBefore) {
  decide(5);
  RunResult r = verify({"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string head = json::parse(r.out)["head"];
  decide(2);
  EXPECT_EQ(verify({"--head", head}).exit_code, 0);  // it grew: the old head is still there
  std::vector<std::string> l = lines(log());
  l.resize(l.size() - 4);  // the last records, removed
  rewrite(log(), l);
  EXPECT_EQ(verify().exit_code, 0);  // no link can show it...
  r = verify({"--head", head});      // ...the noted head can
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("head: the head " + head + " noted earlier is not in the chain"),
            std::string::npos)
      << r.out;
}

TEST_F(AuditChain, RotationKeepsEveryFileByDefaultAndChainsAcrossThem) {
  decide(200, {{"TOOLGUARD_AUDIT_MAX_BYTES", "4000"}});
  unsigned rotated = 0;
  while (fs::exists(log() + "." + std::to_string(rotated + 1))) ++rotated;
  EXPECT_GT(rotated, 6u);  // more than the five the old default kept
  // Every decision is still there, and the chain runs through every file.
  RunResult r = run({"audit", "query", "--home", home(), "--json"});
  EXPECT_EQ(json::parse(r.out).size(), 203u);
  r = verify();
  EXPECT_EQ(r.exit_code, 0) << r.out;
  // The new file's anchor links to the old file's last line.
  const json anchor = json::parse(lines(log() + ".1")[0]);
  EXPECT_EQ(anchor["anchor"]["seq"], rotated - 1);
  // A whole rotated file dropped: the next file's anchor names the gap.
  fs::remove(log() + ".3");
  r = verify();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find(log() + ".2:1: prev_hash does not match " + log() + ".4:"),
            std::string::npos)
      << r.out;
  // The oldest file dropped: the chain's start is missing.
  fs::rename(log() + ".4", log() + ".3");  // close the gap by hand: still a broken start
  for (unsigned n = 5; n <= rotated; ++n) fs::remove(log() + "." + std::to_string(n));
  r = verify();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("the chain's start is missing"), std::string::npos) << r.out;
}

TEST_F(AuditChain, ARetentionTheOperatorSetDeletesLoudlyAndVerifyAcceptsIt) {
  std::map<std::string, std::string> keep = {{"TOOLGUARD_AUDIT_MAX_BYTES", "4000"},
                                             {"TOOLGUARD_AUDIT_KEEP", "2"}};
  std::map<std::string, std::string> environment = env();
  for (const auto& [k, v] : keep) environment[k] = v;
  std::string batch;
  for (int i = 0; i < 200; ++i) {
    batch += R"({"tool":"Bash","args":{"command":"ls"},"context":{"cwd":"/tmp"}})"
             "\n";
  }
  RunResult r = runBinary(TOOLGUARD_BINARY, {"check", "--home", home(), "--batch"}, batch,
                          environment, dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("audit log retention (keep 2 rotated files) deleted " + log() + ".2"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(log() + ".2"));
  EXPECT_FALSE(fs::exists(log() + ".3"));
  r = verify();
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("were deleted by the retention setting"), std::string::npos) << r.out;
  // A malformed setting fails closed, naming it.
  environment["TOOLGUARD_AUDIT_KEEP"] = "five";
  r = runBinary(TOOLGUARD_BINARY, {"check", "--home", home()},
                R"({"tool":"Bash","args":{"command":"ls"}})", environment, dir.path().string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find(R"("verdict":"deny")"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TOOLGUARD_AUDIT_KEEP: a whole number, not 'five'"), std::string::npos)
      << r.out;
}

TEST_F(AuditChain, AnOlderLogWithoutAChainIsContinuedWithAnAnchor) {
  fs::create_directories(home());
  {
    std::ofstream out(log());
    out << R"({"time":"2026-11-20T09:00:00.000Z","tool":"Bash","verdict":"allow"})"
        << "\n";
  }
  decide(2);
  RunResult r = verify();
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("1 record(s) before the chain began"), std::string::npos) << r.out;
}

}  // namespace audit_chain_test
}  // namespace toolguard::testing
