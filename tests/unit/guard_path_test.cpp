// One straight path for every call: the engine assesses (the policy's
// verdict, unresolved), the Guard settles once (escalate, validator, limits,
// approval, audit), and a caller that holds an assessment settles it with
// the same result as decide().
#include <gtest/gtest.h>

#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard {
namespace guard_path_test {

using nlohmann::json;
using testing::makeCall;

Engine engine() {
  return PolicyBuilder()
      .defaultAction(Verdict::Escalate)
      .requireApproval("deploy", "a person decides")
      .deny("wipe_disk", "never")
      .allow("list_things")
      .build();
}

ToolCall call(const std::string& tool, InteractionMode mode) {
  ToolCall c = makeCall(tool, json{{"x", 1}});
  c.context.mode = mode;
  c.context.session = "s1";
  return c;
}

TEST(GuardPath, TheEngineAssessesWithoutResolvingAndDecideResolvesForProgramsWithoutAGuard) {
  const Engine e = engine();
  for (InteractionMode mode : {InteractionMode::Interactive, InteractionMode::Headless}) {
    const Assessment escalated = e.assess(call("my_tool", mode));
    EXPECT_EQ(escalated.decision.verdict, Verdict::Escalate);
    EXPECT_EQ(escalated.decision.policy_verdict, Verdict::Escalate);
    EXPECT_TRUE(escalated.decision.resolution.empty()) << escalated.decision.resolution;
    ASSERT_TRUE(escalated.subject);
    EXPECT_EQ(escalated.subject->call().tool, "my_tool");
    EXPECT_EQ(&escalated.subject->view().call(), &escalated.subject->call());
    const Assessment asked = e.assess(call("deploy", mode));
    EXPECT_EQ(asked.decision.verdict, Verdict::Ask) << "headless or not, the policy asked";
  }
  const Decision interactive = e.decide(call("my_tool", InteractionMode::Interactive));
  EXPECT_EQ(interactive.verdict, Verdict::Ask);
  EXPECT_NE(interactive.resolution.find("no LLM validator is configured"), std::string::npos);
  const Decision headless = e.decide(call("deploy", InteractionMode::Headless));
  EXPECT_EQ(headless.verdict, Verdict::Deny);
  EXPECT_EQ(headless.policy_verdict, Verdict::Ask);
  EXPECT_NE(headless.resolution.find("headless"), std::string::npos);
}

TEST(GuardPath, AnImitatedToolIsAssessedAndViewedAsTheToolItImitates) {
  const Engine e = PolicyBuilder().profile("default").build();
  ToolCall c = makeCall("Bash ", json{{"command", "git status"}});
  const Assessment a = e.assess(c);
  ASSERT_TRUE(a.subject);
  EXPECT_EQ(a.subject->call().tool, "Bash");
  ASSERT_NE(a.subject->view().shellProgram(), nullptr);
  EXPECT_TRUE(a.decision.approval_key.starts_with("Bash  ")) << a.decision.approval_key;
}

TEST(GuardPath, AnInvalidCallHasNoSubjectAndIsDenied) {
  const Assessment a = engine().assess(makeCall("", json::object()));
  EXPECT_FALSE(a.subject);
  EXPECT_EQ(a.decision.verdict, Verdict::Deny);
  EXPECT_EQ(a.decision.basis, DecisionBasis::Error);
}

TEST(GuardPath, EscalateBecomesAskOnceAndAHeadlessAskIsDeniedOnce) {
  GuardOptions report;
  report.report_ask = true;
  Guard guard(engine(), report);
  const Decision asked = guard.decide(call("my_tool", InteractionMode::Interactive));
  EXPECT_EQ(asked.verdict, Verdict::Ask);
  EXPECT_EQ(asked.resolution, "escalate becomes ask: no LLM validator is configured");

  Guard nobody(engine());
  const Decision headless = nobody.decide(call("deploy", InteractionMode::Headless));
  EXPECT_EQ(headless.verdict, Verdict::Deny);
  EXPECT_EQ(headless.resolution.find("headless"), headless.resolution.rfind("headless"))
      << "said once: " << headless.resolution;
  ASSERT_TRUE(headless.approval);
  EXPECT_EQ(headless.approval->by, "headless");
}

TEST(GuardPath, ARememberedApprovalStillAllowsAHeadlessAsk) {
  Guard guard(engine());
  ApprovalEntry entry;
  entry.tool = "deploy";
  entry.binding = ApprovalBinding::Tool;
  entry.scope = ApprovalScope::Session;
  entry.scope_id = "s1";
  entry.rule = "*";
  ASSERT_TRUE(guard.sessionApprovals().add(entry));
  const Decision d = guard.decide(call("deploy", InteractionMode::Headless));
  EXPECT_EQ(d.verdict, Verdict::Allow) << d.resolution;
  EXPECT_EQ(guard.decide(call("wipe_disk", InteractionMode::Headless)).verdict, Verdict::Deny);
}

TEST(GuardPath, SettlingAnAssessmentIsDecidingAndAuditsOnce) {
  testing::TempDir dir;
  const std::string log = (dir.path() / "audit.jsonl").string();
  GuardOptions options;
  options.report_ask = true;
  options.audit_log = std::make_shared<AuditLog>(AuditLogOptions{log});
  Guard guard(engine(), options);
  for (const char* tool : {"my_tool", "deploy", "wipe_disk", "list_things"}) {
    const ToolCall c = call(tool, InteractionMode::Interactive);
    const Decision decided = guard.decide(c);
    Assessment a = guard.assess(c);
    const Decision settled = guard.settle(c, std::move(a));
    EXPECT_EQ(settled.verdict, decided.verdict) << tool;
    EXPECT_EQ(settled.reason, decided.reason) << tool;
    EXPECT_EQ(settled.resolution, decided.resolution) << tool;
    EXPECT_EQ(settled.model_reason, decided.model_reason) << tool;
    EXPECT_NE(settled.id, decided.id) << tool;
  }
  EXPECT_EQ(readAuditLog(log, AuditQuery{}).size(), 8u);
}

}  // namespace guard_path_test
}  // namespace toolguard
