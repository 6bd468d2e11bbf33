// Rules with ordered cases (`first_match:`) and path globs relative to the cwd.
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace first_match_test {

Engine engineFor(const std::string& text, bool with_default = false) {
  Policy policy;
  if (with_default) {
    mergePolicyText(policy, policyProfileText("default"), "<profile:default>",
                    PolicyLayer::Builtin);
  }
  mergePolicyText(policy, text, "p.yaml", PolicyLayer::Explicit);
  return Engine(policy);
}

Decision shell(const Engine& engine, const std::string& command) {
  return engine.decide(testing::makeCall("Bash", {{"command", command}}, "/w"));
}

const char* kDockerRule = R"(
rules:
  - id: docker
    first_match:
      - shell: {regex: "docker (ps|images)( .*)?"}
        verdict: allow
        reason: listing is harmless
      - shell: "docker *"
        verdict: ask
        reason: docker changes the machine
      - tool: Write
        path: "*.lock"
        verdict: deny
        reason: lock files are generated
)";

TEST(FirstMatch, TheFirstMatchingCaseDecidesEvenWhenALaterOneIsStricter) {
  Engine engine = engineFor(kDockerRule);
  Decision d = shell(engine, "docker ps -a");
  EXPECT_EQ(d.verdict, Verdict::Allow);
  EXPECT_EQ(d.rule_id, "docker#1");
  EXPECT_EQ(d.source.line, 5);  // the case's own line
  d = shell(engine, "docker run --rm alpine");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.rule_id, "docker#2");
  EXPECT_EQ(d.reason, "docker changes the machine");
}

TEST(FirstMatch, EachSimpleCommandIsJudgedOnItsOwn) {
  Engine engine = engineFor(kDockerRule);
  // The allow case matches the first command only; the second asks.
  Decision d = shell(engine, "docker ps && docker rm -f web");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.decided_on, "docker rm -f web");
  // A command no case matches is unknown: escalated (ask without a validator).
  d = shell(engine, "docker images; curl example.com");
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.rule_id, "shell-unknown-command");
}

TEST(FirstMatch, CasesWithoutShellJudgeTheWholeCall) {
  Engine engine = engineFor(kDockerRule);
  Decision d = engine.decide(testing::makeCall("Write", {{"file_path", "/w/Cargo.lock"}}, "/w"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.rule_id, "docker#3");
  d = engine.decide(testing::makeCall("Write", {{"file_path", "/w/main.rs"}}, "/w"));
  EXPECT_NE(d.rule_id, "docker#3");
}

TEST(FirstMatch, OtherRulesStillWinWhenStricter) {
  Engine engine = engineFor(kDockerRule, /*with_default=*/true);
  // The default policy's rules still judge `rm -rf ~` inside the program.
  Decision d = shell(engine, "docker ps; rm -rf ~");
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.rule_id.rfind("docker", 0), 0u);
}

TEST(FirstMatch, ARuleWithCasesTakesNoConditionsOfItsOwn) {
  try {
    engineFor("rules:\n  - id: x\n    verdict: deny\n    first_match:\n      - {verdict: allow}\n");
    FAIL() << "expected a PolicyError";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("p.yaml:5"), std::string::npos) << e.what();
  }
  try {
    engineFor(
        "rules:\n  - id: x\n    first_match:\n      - {shell: {regex: \"(\"}, verdict: deny}\n");
    FAIL() << "expected a PolicyError";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("p.yaml:4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(engineFor("rules:\n  - id: x\n    first_match: []\n"), PolicyError);
  EXPECT_THROW(engineFor("rules:\n  - id: x\n    first_match:\n      - {shell: ls}\n"),
               PolicyError);  // a case needs a verdict
}

TEST(FirstMatch, AnUntrustedProjectKeepsOnlyTheRestrictingCases) {
  Policy policy;
  mergePolicyText(policy, kDockerRule, "project.yaml", PolicyLayer::Project, /*trusted=*/false);
  Engine engine(policy);
  // The allow case is gone, so the ask case decides `docker ps`.
  EXPECT_EQ(shell(engine, "docker ps").verdict, Verdict::Ask);
  bool warned = false;
  for (const auto& w : engine.policy().warnings) {
    warned = warned || w.message.find("first_match case (allow) ignored") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

TEST(FirstMatch, ExamplesAreCheckedAgainstTheCases) {
  Policy policy;
  mergePolicyText(policy, R"(
rules:
  - id: docker
    first_match:
      - {shell: "docker ps", verdict: allow}
    examples:
      match: ["docker ps"]
      not_match: ["docker ps", "podman ps"]
)",
                  "p.yaml", PolicyLayer::Explicit);
  auto failures = checkRuleExamples(policy);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].where.line, 8);
}

TEST(CwdGlobs, ADotSlashGlobIsRelativeToTheCallsCwd) {
  testing::TempDir dir;
  const std::string cwd = (dir.path() / "app").string();
  Engine engine = engineFor(R"(
rules:
  - {id: env, tool: Read, path: ./.env, verdict: deny}
  - {id: src, tool: Edit, path: "./src/**", verdict: allow}
)");
  auto read = [&](const std::string& path) {
    return engine.decide(testing::makeCall("Read", {{"file_path", path}}, cwd));
  };
  EXPECT_EQ(read(cwd + "/.env").rule_id, "env");
  EXPECT_EQ(read(".env").rule_id, "env");
  EXPECT_NE(read(cwd + "/sub/.env").rule_id, "env");  // not at any depth
  EXPECT_NE(read((dir.path() / ".env").string()).rule_id, "env");
  Decision d = engine.decide(testing::makeCall("Edit", {{"file_path", "src/a/b.cc"}}, cwd));
  EXPECT_EQ(d.rule_id, "src");
  EXPECT_EQ(d.verdict, Verdict::Allow);
  d = engine.decide(testing::makeCall("Edit", {{"file_path", "../src/b.cc"}}, cwd));
  EXPECT_NE(d.rule_id, "src");
  d = engine.decide(testing::makeCall("Edit", {{"file_path", "src/../../x"}}, cwd));
  EXPECT_NE(d.rule_id, "src");
}

}  // namespace first_match_test
}  // namespace toolguard
