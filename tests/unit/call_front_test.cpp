// The front every surface calls: bytes in, an audited decision out, never
// an exception; malformed input, a policy that does not load, a front with
// no Guard and a failing audit log all deny, each saying why.
#include "front/call_front.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "support/temp_dir.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::front {
namespace {

using nlohmann::json;

struct Front {
  testing::TempDir dir;
  std::string log_path = (dir.path() / "audit.jsonl").string();
  std::shared_ptr<AuditSink> log = std::make_shared<AuditLog>(AuditLogOptions{log_path});
  std::shared_ptr<Guard> guard;
  GuardSource guards;
  InputOptions input;

  Front() {
    GuardOptions options;
    options.audit_log = log;
    options.report_ask = true;
    guard = std::make_shared<Guard>(
        PolicyBuilder().allow("Read").requireApproval("deploy", "a person decides").build(),
        options);
    guards.audit_log = log;
    guards.guard_for = [this](const ToolCall&) { return guard; };
    input.default_cwd = "/work/app";
  }

  FrontDecision decideInput(const std::string& text) const {
    return front::decideInput(text, input, guards);
  }

  // The audit records (readAuditLog leaves out the anchor that starts the file).
  std::vector<json> records() const { return readAuditLog(log_path, AuditQuery{}); }
};

TEST(CallFront, DecidesACallThroughTheGuardWhichAuditsItOnce) {
  Front f;
  f.input.adjust = [](ToolCall& call) { call.context.agent = "token-name"; };
  FrontDecision r =
      f.decideInput(R"({"tool": "deploy", "args": {"x": 1}, "context": {"agent": "claimed"}})");
  ASSERT_EQ(r.outcome, FrontDecision::Outcome::Decided);
  EXPECT_EQ(r.decision.verdict, Verdict::Ask);
  ASSERT_TRUE(r.call);
  EXPECT_EQ(r.call->context.agent, "token-name") << "the surface's adjustment applies";
  EXPECT_EQ(r.call->context.cwd, "/work/app");
  EXPECT_TRUE(r.error.empty());
  const std::vector<json> records = f.records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["context"].value("agent", ""), "token-name");
  EXPECT_EQ(records[0].value("id", ""), r.decision.id);
}

TEST(CallFront, MalformedInputIsDeniedAndAuditedWithItsFirstBytes) {
  Front f;
  for (const char* text :
       {"{not json", R"({"tool": "Read", "tool": "Bash"})", "[]", R"({"tool": 7})", "{} {}"}) {
    FrontDecision r = f.decideInput(text);
    EXPECT_EQ(r.outcome, FrontDecision::Outcome::Malformed) << text;
    EXPECT_EQ(r.decision.verdict, Verdict::Deny) << text;
    EXPECT_FALSE(r.call) << text;
    EXPECT_FALSE(r.error.empty()) << text;
  }
  EXPECT_TRUE(f.decideInput("{not json").not_json);
  EXPECT_FALSE(f.decideInput("[]").not_json);
  const std::vector<json> records = f.records();
  ASSERT_EQ(records.size(), 7u);
  EXPECT_TRUE(records[0].value("malformed", false));
  EXPECT_EQ(records[0].value("input", ""), "{not json");
  EXPECT_EQ(records[0].value("format", ""), "toolguard");
}

TEST(CallFront, InputRefusedUnreadIsAuditedAsCut) {
  Front f;
  FrontDecision r =
      refuseInput(MalformedCall{"{\"tool\": ", true, 99999999, "too large", "claude"}, f.guards);
  EXPECT_EQ(r.outcome, FrontDecision::Outcome::Malformed);
  EXPECT_EQ(r.decision.verdict, Verdict::Deny);
  const std::vector<json> records = f.records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_TRUE(records[0].value("input_truncated", false));
  EXPECT_EQ(records[0].value("format", ""), "claude");
}

TEST(CallFront, APolicyThatDoesNotLoadDeniesNamingItsFileForThePersonOnly) {
  Front f;
  f.guards.guard_for = [](const ToolCall&) -> std::shared_ptr<Guard> {
    throw PolicyError(SourceLocation{"/work/app/.toolguard/policy.yaml", 3, 7}, "bad rule");
  };
  FrontDecision r = f.decideInput(R"({"tool": "Read", "args": {"file_path": "a"}})");
  ASSERT_EQ(r.outcome, FrontDecision::Outcome::NotJudged);
  EXPECT_EQ(r.decision.verdict, Verdict::Deny);
  EXPECT_NE(r.decision.reason.find("the policy could not be loaded"), std::string::npos);
  EXPECT_NE(r.decision.reason.find("bad rule"), std::string::npos);
  EXPECT_EQ(r.decision.source.line, 3);
  EXPECT_EQ(r.decision.model_reason.find("policy.yaml"), std::string::npos)
      << "the model is not shown the guard's files: " << r.decision.model_reason;
  ASSERT_TRUE(r.call);
  EXPECT_EQ(r.call->tool, "Read");
  const std::vector<json> records = f.records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].value("tool", ""), "Read");
  EXPECT_EQ(records[0].value("verdict", ""), "deny");
}

TEST(CallFront, AnyOtherFailureToGetAGuardDenies) {
  Front f;
  f.guards.guard_for = [](const ToolCall&) -> std::shared_ptr<Guard> {
    throw std::runtime_error("TOOLGUARD_LLM_MODEL is empty");
  };
  FrontDecision r = f.decideInput(R"({"tool": "Read", "args": {}})");
  EXPECT_EQ(r.outcome, FrontDecision::Outcome::NotJudged);
  EXPECT_EQ(r.decision.verdict, Verdict::Deny);
  EXPECT_NE(r.error.find("TOOLGUARD_LLM_MODEL"), std::string::npos);
  f.guards.guard_for = [](const ToolCall&) { return std::shared_ptr<Guard>(); };
  EXPECT_EQ(f.decideInput(R"({"tool": "Read", "args": {}})").decision.verdict, Verdict::Deny);
}

TEST(CallFront, AFrontWithoutGuardsDeniesEveryCallForItsReason) {
  Front f;
  f.guards.unavailable = "approvals and audit could not be set up: read-only file system";
  FrontDecision r = f.decideInput(R"({"tool": "Read", "args": {}})");
  EXPECT_EQ(r.outcome, FrontDecision::Outcome::NotJudged);
  EXPECT_EQ(r.decision.verdict, Verdict::Deny);
  EXPECT_EQ(r.decision.reason, f.guards.unavailable);
}

// A sink that cannot keep anything (a full disk, a lost database).
struct RefusingSink : AuditSink {
  void writeRecord(const json&) override { throw std::runtime_error("disk full"); }
};

TEST(CallFront, AnAuditThatFailsIsNamedInTheDenysReason) {
  Front f;
  f.guards.audit_log = std::make_shared<RefusingSink>();
  FrontDecision malformed = f.decideInput("{not json");
  EXPECT_EQ(malformed.decision.verdict, Verdict::Deny);
  EXPECT_NE(malformed.audit_problem.find("disk full"), std::string::npos);
  EXPECT_NE(malformed.decision.reason.find("disk full"), std::string::npos);
  f.guards.unavailable = "no guard";
  FrontDecision unjudged = f.decideInput(R"({"tool": "Read", "args": {}})");
  EXPECT_NE(unjudged.decision.reason.find("disk full"), std::string::npos);
}

TEST(CallFront, ReadsEveryAgentsFormat) {
  Front f;
  f.input.format = CallFormat::Claude;
  f.input.format_name = "claude";
  FrontDecision r = f.decideInput(
      R"({"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "/work/app/a"}, "cwd": "/work/app", "session_id": "s"})");
  ASSERT_EQ(r.outcome, FrontDecision::Outcome::Decided) << r.error;
  EXPECT_EQ(r.decision.verdict, Verdict::Allow);
}

}  // namespace
}  // namespace toolguard::front
