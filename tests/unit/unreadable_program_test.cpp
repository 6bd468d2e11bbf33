// A shell program that does not parse is never allowed, whatever the rules say.
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace unreadable_program_test {

Engine allowEverything() {
  Policy policy;
  mergePolicyText(policy, "rules:\n  - {id: all, shell: {regex: \".*\"}, verdict: allow}\n",
                  "p.yaml", PolicyLayer::Explicit);
  return Engine(policy);
}

TEST(UnreadableProgram, AnAllowRuleDoesNotAllowAProgramThatDoesNotParse) {
  Engine engine = allowEverything();
  Decision d = engine.decide(testing::makeCall("Bash", {{"command", "echo ok"}}));
  EXPECT_EQ(d.verdict, Verdict::Allow);
  d = engine.decide(testing::makeCall("Bash", {{"command", "echo ok; cat <(ls"}}));
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_EQ(d.rule_id, "shell-unreadable-program");
  EXPECT_NE(d.reason.find("does not parse"), std::string::npos) << d.reason;
}

TEST(UnreadableProgram, AStricterRuleStillDecides) {
  Policy policy;
  mergePolicyText(policy, "rules:\n  - {id: no-cat, shell: \"cat *\", verdict: deny}\n", "p.yaml",
                  PolicyLayer::Explicit);
  Engine engine(policy);
  Decision d = engine.decide(testing::makeCall("Bash", {{"command", "cat x; echo \"open"}}));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.rule_id, "no-cat");
}

}  // namespace unreadable_program_test
}  // namespace toolguard
