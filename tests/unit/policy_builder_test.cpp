#include "toolguard/policy_builder.hpp"

#include <gtest/gtest.h>

#include "support/calls.hpp"

namespace toolguard {
namespace policy_builder_test {

ToolCall call(std::string tool, nlohmann::json args = nlohmann::json::object()) {
  return testing::makeCall(std::move(tool), std::move(args), "/w");
}

ToolInfo tool(std::string name, std::string category = "", RiskLevel risk = RiskLevel::Low) {
  ToolInfo t;
  t.name = std::move(name);
  t.metadata.category = std::move(category);
  t.metadata.risk = risk;
  return t;
}

TEST(PolicyBuilder, AllowDenyApprovalByNameAndWildcard) {
  auto engine = PolicyBuilder()
                    .allow("read_file")
                    .allow("filesystem_*")
                    .requireApproval("write_file")
                    .deny("mcp__github__delete_*", "no deleting on GitHub")
                    .allow("mcp__github__*")
                    .defaultAction(Verdict::Deny)
                    .build();
  EXPECT_EQ(engine.decide(call("read_file")).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("filesystem_list")).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("write_file")).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("mcp__github__create_issue")).verdict, Verdict::Allow);
  Decision d = engine.decide(call("mcp__github__delete_repo"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.reason, "no deleting on GitHub");
  EXPECT_EQ(engine.decide(call("something_else")).verdict, Verdict::Deny);
}

TEST(PolicyBuilder, DenyBeatsApprovalBeatsAllowBeatsDefaultInAnyOrder) {
  auto a = PolicyBuilder().deny("x").requireApproval("x").allow("x").build();
  auto b = PolicyBuilder().allow("x").requireApproval("x").deny("x").build();
  EXPECT_EQ(a.decide(call("x")).verdict, Verdict::Deny);
  EXPECT_EQ(b.decide(call("x")).verdict, Verdict::Deny);
  auto c = PolicyBuilder().allow("y").requireApproval("y").build();
  auto d = PolicyBuilder().requireApproval("y").allow("y").build();
  EXPECT_EQ(c.decide(call("y")).verdict, Verdict::Ask);
  EXPECT_EQ(d.decide(call("y")).verdict, Verdict::Ask);
  auto e = PolicyBuilder().defaultAction(Verdict::Deny).allow("z").build();
  auto f = PolicyBuilder().allow("z").defaultAction(Verdict::Deny).build();
  EXPECT_EQ(e.decide(call("z")).verdict, Verdict::Allow);
  EXPECT_EQ(f.decide(call("z")).verdict, Verdict::Allow);
}

TEST(PolicyBuilder, ByCategory) {
  auto engine = PolicyBuilder()
                    .registerTool(tool("send_mail", "email"))
                    .registerTool(tool("list_mail", "email"))
                    .registerTool(tool("rm_db", "database"))
                    .requireApprovalForCategory("email")
                    .allow("list_mail")
                    .denyCategory("database")
                    .allowCategory("search")
                    .build();
  EXPECT_EQ(engine.decide(call("send_mail")).verdict, Verdict::Ask);
  EXPECT_EQ(engine.decide(call("list_mail")).verdict, Verdict::Ask);  // approval beats allow
  EXPECT_EQ(engine.decide(call("rm_db")).verdict, Verdict::Deny);
}

TEST(PolicyBuilder, MaxRiskDeniesToolsAboveIt) {
  auto engine = PolicyBuilder()
                    .registerTool(tool("low", "", RiskLevel::Low))
                    .registerTool(tool("high", "", RiskLevel::High))
                    .registerTool(tool("critical", "", RiskLevel::Critical))
                    .allow("*")
                    .maxRisk(RiskLevel::High)
                    .build();
  EXPECT_EQ(engine.decide(call("low")).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("high")).verdict, Verdict::Allow);
  Decision d = engine.decide(call("critical"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("high"), std::string::npos);
}

TEST(PolicyBuilder, SetDefaultPolicyAppliesToToolsRegisteredAfterwards) {
  auto engine = PolicyBuilder()
                    .defaultAction(Verdict::Ask)
                    .registerTool(tool("before"))
                    .setDefaultPolicy(ToolPolicy::Deny)
                    .registerTool(tool("after"))
                    .setDefaultPolicy(ToolPolicy::Allow)
                    .registerTool(tool("later"))
                    .build();
  EXPECT_EQ(engine.decide(call("before")).verdict, Verdict::Ask);  // kept its own (none)
  EXPECT_EQ(engine.decide(call("after")).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("later")).verdict, Verdict::Allow);
  ToolInfo explicit_policy = tool("explicit");
  explicit_policy.policy = ToolPolicy::Confirm;
  auto e2 =
      PolicyBuilder().setDefaultPolicy(ToolPolicy::Deny).registerTool(explicit_policy).build();
  EXPECT_EQ(e2.decide(call("explicit")).verdict, Verdict::Ask);
}

TEST(PolicyBuilder, DeclarativeRulesWithArgumentMatchers) {
  RuleSpec spec;
  spec.header.id = "no-prod";
  spec.header.target.tools = {"deploy"};
  spec.args = {{"env", ValueMatcher::Equals("prod")}};
  spec.verdict = Verdict::Ask;
  spec.reason = "deploying to production";
  spec.examples = {RuleExample{call("deploy"), false, {}}};
  spec.examples[0].call.args = {{"env", "staging"}};
  auto engine = PolicyBuilder().allow("deploy").rule(spec).build();
  ToolCall c = call("deploy");
  c.args = {{"env", "prod"}};
  EXPECT_EQ(engine.decide(c).verdict, Verdict::Ask);
  c.args = {{"env", "staging"}};
  EXPECT_EQ(engine.decide(c).verdict, Verdict::Allow);
}

TEST(PolicyBuilder, FailingExampleStopsTheBuild) {
  RuleSpec spec;
  spec.header.id = "wrong";
  spec.header.target.tools = {"deploy"};
  spec.args = {{"env", ValueMatcher::Equals("prod")}};
  ToolCall example = call("deploy");
  example.args = {{"env", "staging"}};
  spec.examples = {RuleExample{example, true, {"<test>", 3, 4}}};
  PolicyBuilder builder;
  builder.rule(spec);
  try {
    builder.build();
    FAIL() << "expected PolicyError";
  } catch (const PolicyError& e) {
    ASSERT_EQ(e.errors().size(), 1u);
    EXPECT_EQ(e.errors()[0].where.line, 3);
    EXPECT_NE(e.errors()[0].message.find("should match"), std::string::npos);
  }
}

TEST(PolicyBuilder, BadRegexIsAnErrorAtTheMatchersLocation) {
  RuleSpec spec;
  spec.header.id = "bad";
  ValueMatcher m = ValueMatcher::Regex("(unclosed");
  m.where = {"f.yaml", 7, 9};
  spec.command = m;
  try {
    PolicyBuilder().rule(spec);
    FAIL() << "expected PolicyError";
  } catch (const PolicyError& e) {
    EXPECT_EQ(e.errors()[0].where.toString(), "f.yaml:7:9");
  }
}

TEST(PolicyBuilder, ProfilesLoadAndUnknownProfileFails) {
  for (const std::string& name : policyProfiles()) {
    EXPECT_NO_THROW(PolicyBuilder().profile(name).build()) << name;
  }
  EXPECT_GE(policyProfiles().size(), 4u);
  EXPECT_THROW(PolicyBuilder().profile("no-such-profile"), PolicyError);
}

}  // namespace policy_builder_test
}  // namespace toolguard
