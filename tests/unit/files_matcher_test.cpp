// One glob dialect for every matcher, and `files:` rules that cover file
// tools and the shell together (issue 26).
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace files_matcher_test {

Engine engineFor(const std::string& text) {
  Policy policy;
  mergePolicyText(policy, text, "p.yaml", PolicyLayer::Explicit);
  return Engine(std::move(policy));
}

std::string firstError(const std::string& text) {
  try {
    Policy policy;
    mergePolicyText(policy, text, "p.yaml", PolicyLayer::Explicit);
  } catch (const PolicyError& e) {
    return e.errors().front().toString();
  }
  return "no error";
}

Verdict decide(const Engine& e, const std::string& tool, nlohmann::json args) {
  return e.decide(testing::makeCall(tool, std::move(args), "/work/app")).policy_verdict;
}

std::string ruleOf(const Engine& e, const std::string& tool, nlohmann::json args) {
  return e.decide(testing::makeCall(tool, std::move(args), "/work/app")).rule_id;
}

TEST(FilesMatcher, OneRuleCoversFileToolsMcpToolsAndTheShell) {
  const Engine e = engineFor(
      "default: allow\n"
      "rules:\n"
      "  - id: no-secrets\n"
      "    files: [./secrets/**]\n"
      "    verdict: deny\n");
  EXPECT_EQ(decide(e, "Write", {{"file_path", "secrets/db.key"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Read", {{"file_path", "/work/app/secrets/db.key"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Grep", {{"pattern", "x"}, {"path", "secrets"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "echo hi > secrets/db.key"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "cat secrets/db.key"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "cd secrets && cat db.key"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Write", {{"file_path", "src/secrets.c"}}), Verdict::Allow);
  EXPECT_NE(ruleOf(e, "Bash", {{"command", "cat src/main.c"}}), "no-secrets");
}

TEST(FilesMatcher, AKindNarrowsItToReadsOrWrites) {
  const Engine e = engineFor(
      "default: allow\n"
      "rules:\n"
      "  - id: no-writes\n"
      "    kind: file-write\n"
      "    files: [./vendor/**]\n"
      "    verdict: deny\n");
  EXPECT_EQ(decide(e, "Bash", {{"command", "echo x > vendor/a.c"}}), Verdict::Deny);
  EXPECT_NE(ruleOf(e, "Bash", {{"command", "cat vendor/a.c"}}), "no-writes");
}

TEST(FilesMatcher, ShellWritesSpeakTheSameGlobDialect) {
  // `./` in shell.writes used to match nothing (issue 26).
  const Engine e = engineFor(
      "default: allow\n"
      "rules:\n"
      "  - id: secrets-dir\n"
      "    shell: {writes: [\"./secrets/**\", \"*.{pem,key}\"]}\n"
      "    verdict: deny\n");
  EXPECT_EQ(decide(e, "Bash", {{"command", "echo hi > secrets/db.key"}}), Verdict::Deny);
  EXPECT_EQ(decide(e, "Bash", {{"command", "cp a certs/server.pem"}}), Verdict::Deny);
  EXPECT_NE(ruleOf(e, "Bash", {{"command", "echo hi > notes/db.txt"}}), "secrets-dir");
}

TEST(FilesMatcher, GlobsThatCanNeverMatchAreErrors) {
  EXPECT_NE(firstError("rules:\n  - id: a\n    files: [../shared/**]\n    verdict: deny\n")
                .find("p.yaml:3:12: path glob '../shared/**' can never match"),
            std::string::npos);
  EXPECT_NE(firstError("rules:\n  - id: a\n    path: [src/./x]\n    verdict: deny\n")
                .find("can never match: paths are compared with `.` removed"),
            std::string::npos);
  EXPECT_NE(firstError("rules:\n  - id: a\n    shell: {writes: [~bob/x]}\n    verdict: deny\n")
                .find("only `~/` (the home directory) is expanded"),
            std::string::npos);
  EXPECT_NE(firstError("rules:\n  - id: a\n    files: [x]\n    path: [y]\n    verdict: deny\n")
                .find("either files or path"),
            std::string::npos);
  EXPECT_EQ(
      firstError("rules:\n  - id: a\n    files: [./x/**, ., ~/y, /z/**]\n    verdict: deny\n"),
      "no error");
}

}  // namespace files_matcher_test
}  // namespace toolguard
