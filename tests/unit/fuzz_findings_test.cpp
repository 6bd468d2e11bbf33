// What the fuzzers (tests/fuzz, docs/fuzzing.md) found, each kept as a
// regression test: every input here once crashed, hung or slipped through
// (a fail-open path for a hook), and now gives a clear error.
#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "approval/store_format.hpp"
#include "cli/settings_file.hpp"
#include "foreign_policy/foreign_policy.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/session.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace fuzz_findings_test {

using nlohmann::json;

// The first diagnostic of a PolicyError thrown by `read`.
template <typename Read>
PolicyDiagnostic firstError(Read read) {
  try {
    read();
  } catch (const PolicyError& e) {
    if (!e.errors().empty()) return e.errors().front();
    ADD_FAILURE() << "a PolicyError without a diagnostic";
    return {};
  }
  ADD_FAILURE() << "no PolicyError";
  return {};
}

// ---- mcp_fuzz: a batch that is not JSON was relayed to the client as it came ----

TEST(FuzzFindingsTest, McpScannerRefusesABatchThatIsNotJson) {
  const mcp::MessageShape shape =
      mcp::scanMessage(R"([{"jsonrpc":"2.0","id":1,"result":{}}, nope])");
  EXPECT_EQ(shape.kind, mcp::MessageKind::Invalid);
  EXPECT_FALSE(shape.problem.empty());
  EXPECT_EQ(mcp::scanMessage("[").kind, mcp::MessageKind::Invalid);
  EXPECT_EQ(mcp::scanMessage(R"([1,2]])").kind, mcp::MessageKind::Invalid);
  // A batch that is JSON still is one.
  EXPECT_EQ(mcp::scanMessage(R"([{"jsonrpc":"2.0","id":1,"result":{}}])").kind,
            mcp::MessageKind::Batch);
}

// ---- mcp_fuzz: a message followed by a NUL byte and more passed as its first part ----

TEST(FuzzFindingsTest, McpScannerRefusesALineWithANulByte) {
  using namespace std::string_literals;
  for (const std::string& line :
       {"[[]]\0code"s, R"({"jsonrpc":"2.0","id":1,"result":{}})"s + '\0',
        R"({"jsonrpc":"2.0","id":1,"result":{}})"s + '\0' + R"({"jsonrpc":"2.0","id":2})", "\0"s}) {
    const mcp::MessageShape shape = mcp::scanMessage(line);
    EXPECT_EQ(shape.kind, mcp::MessageKind::Invalid) << line.size();
    EXPECT_NE(shape.problem.find("NUL"), std::string::npos);
  }
}

TEST(FuzzFindingsTest, McpSessionDropsAServerBatchThatIsNotJson) {
  std::mutex mutex;
  std::vector<std::string> to_client;
  std::vector<std::string> logged;
  mcp::SessionSinks sinks{[&](std::string line) {
                            std::lock_guard lock(mutex);
                            to_client.push_back(std::move(line));
                          },
                          [](std::string) {},
                          [&](const std::string& line) {
                            std::lock_guard lock(mutex);
                            logged.push_back(line);
                          }};
  McpProxyOptions options;
  options.server_name = "srv";
  options.context.cwd = "/work/project";
  auto session = mcp::Session::create(Policy{}, GuardOptions{}, options, std::move(sinks));
  session->fromServer(R"([{"jsonrpc":"2.0","id":7,"result":{}}, {"jsonrpc":)");
  session->clientGone();
  session->waitForDecisions(std::chrono::seconds(10));
  std::lock_guard lock(mutex);
  EXPECT_TRUE(to_client.empty()) << to_client.front();
  ASSERT_FALSE(logged.empty());
  EXPECT_NE(logged.back().find("invalid message"), std::string::npos) << logged.back();
}

// ---- import_fuzz: a number too large for a double ended the process ----

TEST(FuzzFindingsTest, ClaudeSettingsWithAHugeNumberIsAnErrorWithAPlace) {
  const std::string text = "{\n  \"permissions\": {\"allow\": [5e555]}\n}\n";
  const PolicyDiagnostic error = firstError(
      [&] { (void)detail::importClaudeSettings(text, "settings.json", PolicyLayer::Explicit); });
  EXPECT_EQ(error.where.file, "settings.json");
  EXPECT_EQ(error.where.line, 2);
  EXPECT_GT(error.where.column, 0);
  EXPECT_NE(error.message.find("number overflow"), std::string::npos) << error.message;
}

TEST(FuzzFindingsTest, ApprovalStoreWithAHugeNumberIsAStoreError) {
  try {
    (void)detail::parseScopeFile("scope.json", R"({"version": 5e555})");
    FAIL() << "no error";
  } catch (const ApprovalStoreError& e) {
    EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at byte"), std::string::npos) << e.what();
  }
}

TEST(FuzzFindingsTest, SettingsFileWithAHugeNumberIsAnErrorWithAPlace) {
  testing::TempDir dir;
  const std::string path = (dir.path() / "settings.json").string();
  std::ofstream(path) << "{\n  \"hooks\": 1e999\n}\n";
  try {
    (void)cli::readSettingsFile(path);
    FAIL() << "no error";
  } catch (const cli::SettingsFileError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("invalid JSON: number overflow"), std::string::npos)
        << e.what();
  }
}

// ---- policy_fuzz: libfyaml looped forever on a malformed directive ----

TEST(FuzzFindingsTest, YamlDirectivesAreRefusedWithTheirPlace) {
  // "%\xff" and "%YAML.\xc3" (a directive name that is not UTF-8) made libfyaml
  // loop forever.
  for (const std::string& text :
       {std::string("%\xff"), std::string("%YAML.\xc3"),
        std::string("%YAML 1.2\n---\nversion: 1\n"), std::string("%TAG ! x\xff\n---\n"),
        std::string("%"), std::string("\xEF\xBB\xBF%YAML 1.1\n")}) {
    Policy policy;
    const PolicyDiagnostic error =
        firstError([&] { mergePolicyText(policy, text, "fuzz.yaml", PolicyLayer::Explicit); });
    EXPECT_EQ(error.where.file, "fuzz.yaml");
    EXPECT_EQ(error.where.line, 1);
    EXPECT_NE(error.message.find("directive"), std::string::npos) << error.message;
  }
  Policy policy;
  const PolicyDiagnostic later = firstError([&] {
    mergePolicyText(policy, "version: 1\r\nrules: []\r%TAG !e! garbage", "p.yaml",
                    PolicyLayer::Explicit);
  });
  EXPECT_EQ(later.where.line, 3);
  EXPECT_EQ(later.where.column, 1);
  // A '%' that does not start a line is text as before.
  Policy fine;
  mergePolicyText(fine,
                  "version: 1\nrules:\n  - id: a\n    tool: Read\n    verdict: allow\n"
                  "    reason: 100% fine\n",
                  "ok.yaml", PolicyLayer::Explicit);
}

// ---- import_fuzz: toml++ 3.3 reached __builtin_unreachable() on some characters ----

TEST(FuzzFindingsTest, GeminiTomlWithCharactersTomlPlusPlusCouldNotTestIsAnError) {
  const auto import = [](const std::string& text) {
    return detail::importGeminiPolicy(text, "policy.toml", PolicyLayer::Explicit);
  };
  // Where toml++ asks whether a character is whitespace: after a value,
  // while scanning a number, after a backslash in a multi-line string, in a
  // key (U+2C60 and U+FB30 are in the other two blocks it had no case for).
  PolicyDiagnostic error = firstError(
      [&] { (void)import("[[rule]]\ntoolName = \"read_file\" \xC3\xA9\ndecision = \"allow\"\n"); });
  EXPECT_EQ(error.where.file, "policy.toml");
  EXPECT_EQ(error.where.line, 2);
  EXPECT_GT(error.where.column, 0);
  EXPECT_NE(error.message.find("invalid TOML"), std::string::npos) << error.message;
  for (const std::string& text :
       {std::string("a =-\"caf\xC3\xA9\"\n"), std::string("a = \"\"\"\\\xEF\xAC\xB0\"\"\"\n"),
        std::string("\xC2\xA1 = 1\n"), std::string("a = 1\xE2\xB1\xA0\n")}) {
    error = firstError([&] { (void)import(text); });
    EXPECT_EQ(error.where.line, 1) << text;
    EXPECT_NE(error.message.find("invalid TOML"), std::string::npos) << error.message;
  }
  // The same characters inside strings and comments are read as before.
  const detail::ForeignPolicy imported = import(
      "# caf\xC3\xA9\n[[rule]]\ntoolName = \"run_shell_command\"\n"
      "commandPrefix = \"echo caf\xC3\xA9\"\ndecision = \"allow\"\npriority = 10\n"
      "[[rule]]\ntoolName = 'read_file'\nargsPattern = '''\xC3\xA9\n\xC3\xA9'''\n"
      "decision = \"deny\"\npriority = 20\n"
      "[[rule]]\ntoolName = \"write_file\"\nargsPattern = \"\"\"\xC3\xA9 \\\n  \xE2\xB1\xA0\"\"\"\n"
      "decision = \"deny\"\npriority = 20\n");
  EXPECT_FALSE(imported.document.rules.empty());
}

// ---- import_fuzz: toml++ 3.3 assumed what a malformed file breaks ----

TEST(FuzzFindingsTest, GeminiTomlThatBreaksTomlPlusPlusAssumptionsIsAnError) {
  // A table header without a key: toml++ assumed a key follows the '['.
  for (const std::string& text :
       {std::string("[#"), std::string("[[rule]]\n[=\n"), std::string("[ \n")}) {
    const PolicyDiagnostic error = firstError(
        [&] { (void)detail::importGeminiPolicy(text, "policy.toml", PolicyLayer::Explicit); });
    EXPECT_EQ(error.where.file, "policy.toml");
    EXPECT_NE(error.message.find("invalid TOML"), std::string::npos) << error.message;
  }
}

}  // namespace fuzz_findings_test
}  // namespace toolguard
