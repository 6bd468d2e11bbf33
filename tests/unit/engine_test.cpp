#include "toolguard/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "support/calls.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard {
namespace engine_test {

ToolCall call(std::string tool, nlohmann::json args = nlohmann::json::object()) {
  return testing::makeCall(std::move(tool), std::move(args), "/work/app");
}

RuleSpec ruleFor(std::string id, std::vector<std::string> tools, Verdict verdict) {
  RuleSpec spec;
  spec.header.id = std::move(id);
  spec.header.target.tools = std::move(tools);
  spec.verdict = verdict;
  return spec;
}

// A custom rule whose verdict depends on an argument, and one that throws.
class SizeRule : public Rule {
 public:
  SizeRule()
      : Rule(RuleHeader{"size-limit", {"<test>", 1, 1}, PolicyLayer::Code, {{"upload"}, {}, {}}}) {}
  std::optional<Finding> evaluate(const CallView& view) const override {
    auto it = view.call().args.find("bytes");
    if (it == view.call().args.end() || !it->is_number()) return std::nullopt;
    if (it->get<int>() > 1000) return Finding{Verdict::Deny, "too large"};
    return std::nullopt;
  }
};

class ThrowingRule : public Rule {
 public:
  ThrowingRule()
      : Rule(RuleHeader{"broken", {"<test>", 2, 1}, PolicyLayer::Code, {{"upload"}, {}, {}}}) {}
  std::optional<Finding> evaluate(const CallView&) const override {
    throw std::runtime_error("boom");
  }
};

TEST(Engine, StrictestFindingWinsWhateverTheRuleOrder) {
  std::vector<RuleSpec> specs = {
      ruleFor("a", {"tool_x"}, Verdict::Allow), ruleFor("b", {"tool_*"}, Verdict::Ask),
      ruleFor("c", {"*_x"}, Verdict::Deny), ruleFor("d", {"tool_?"}, Verdict::Escalate)};
  std::vector<int> order = {0, 1, 2, 3};
  do {
    PolicyBuilder builder;
    for (int i : order) builder.rule(specs[i]);
    Decision d = builder.build().decide(call("tool_x"));
    EXPECT_EQ(d.verdict, Verdict::Deny);
    EXPECT_EQ(d.rule_id, "c");
    EXPECT_EQ(d.basis, DecisionBasis::Rule);
    EXPECT_EQ(d.consulted.size(), 4u);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(Engine, AbortBeatsDeny) {
  auto engine = PolicyBuilder()
                    .rule(ruleFor("deny", {"t"}, Verdict::Deny))
                    .rule(ruleFor("abort", {"t"}, Verdict::Abort))
                    .build();
  Decision d = engine.decide(call("t"));
  EXPECT_EQ(d.verdict, Verdict::Abort);
  EXPECT_EQ(d.rule_id, "abort");
}

TEST(Engine, NoFindingFallsBackToToolPolicyThenDefault) {
  ToolInfo tool;
  tool.name = "mine";
  tool.policy = ToolPolicy::Deny;
  auto engine = PolicyBuilder().registerTool(tool).defaultAction(Verdict::Allow).build();
  Decision d = engine.decide(call("mine"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.basis, DecisionBasis::ToolPolicy);
  Decision other = engine.decide(call("unknown_tool"));
  EXPECT_EQ(other.verdict, Verdict::Allow);
  EXPECT_EQ(other.basis, DecisionBasis::Default);
}

TEST(Engine, EscalateBecomesAskWithoutValidatorAndAskBecomesDenyHeadless) {
  auto engine = PolicyBuilder().rule(ruleFor("e", {"t"}, Verdict::Escalate)).build();
  ToolCall c = call("t");
  Decision d = engine.decide(c);
  EXPECT_EQ(d.policy_verdict, Verdict::Escalate);
  EXPECT_EQ(d.verdict, Verdict::Ask);
  EXPECT_NE(d.resolution.find("no LLM validator"), std::string::npos);
  c.context.mode = InteractionMode::Headless;
  d = engine.decide(c);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.resolution.find("headless"), std::string::npos);
}

TEST(Engine, HeadlessDoesNotChangeAllowOrDeny) {
  auto engine = PolicyBuilder().allow("ok").deny("bad").build();
  ToolCall c = call("ok");
  c.context.mode = InteractionMode::Headless;
  EXPECT_EQ(engine.decide(c).verdict, Verdict::Allow);
  c.tool = "bad";
  EXPECT_EQ(engine.decide(c).verdict, Verdict::Deny);
}

TEST(Engine, MalformedCallsAreDeniedNamingTheProblem) {
  auto engine = PolicyBuilder().defaultAction(Verdict::Allow).build();
  Decision d = engine.decide(call(""));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.basis, DecisionBasis::Error);
  EXPECT_NE(d.reason.find("tool name"), std::string::npos);
  ToolCall bad = call("x");
  bad.args = nlohmann::json::array({1, 2});
  d = engine.decide(bad);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("args"), std::string::npos);
}

TEST(Engine, DeeplyNestedArgumentsAreDenied) {
  auto engine = PolicyBuilder().defaultAction(Verdict::Allow).build();
  // Built in place: copying a deep value recurses (that is what the limit is for).
  ToolCall deep = call("tool");
  nlohmann::json* leaf = &deep.args["x"];
  for (int i = 0; i < 5000; ++i) leaf = &(leaf->emplace_back(nlohmann::json::array()));
  Decision d = engine.decide(deep);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("nested deeper"), std::string::npos);
  EXPECT_TRUE(d.approval_key.empty());
  EXPECT_EQ(jsonDepth(nlohmann::json::parse(R"({"a":[1,{"b":2}]})")), 3u);
  EXPECT_EQ(jsonDepth(5), 0u);
}

TEST(Engine, CustomRulesAndARuleThatThrowsFailsClosed) {
  auto engine =
      PolicyBuilder().defaultAction(Verdict::Allow).rule(std::make_shared<SizeRule>()).build();
  EXPECT_EQ(engine.decide(call("upload", {{"bytes", 10}})).verdict, Verdict::Allow);
  EXPECT_EQ(engine.decide(call("upload", {{"bytes", 5000}})).verdict, Verdict::Deny);

  auto broken =
      PolicyBuilder().defaultAction(Verdict::Allow).rule(std::make_shared<ThrowingRule>()).build();
  Decision d = broken.decide(call("upload"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("boom"), std::string::npos);
}

TEST(Engine, ConsultsOnlyRulesWhoseTargetSelectsTheTool) {
  PolicyBuilder builder;
  for (int i = 0; i < 500; ++i) builder.deny("tool_" + std::to_string(i));
  for (int i = 0; i < 500; ++i) builder.deny("ns" + std::to_string(i) + "__*");
  builder.denyCategory("network");
  Policy policy = builder.buildPolicy();
  Engine engine(policy);
  Decision d = engine.decide(call("tool_42"));
  EXPECT_EQ(d.consulted.size(), 1u);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  d = engine.decide(call("ns7__thing"));
  ASSERT_EQ(d.consulted.size(), 1u);
  EXPECT_EQ(d.consulted[0].rule->target().tools[0], "ns7__*");
  d = engine.decide(call("WebFetch"));  // category network in the built-in catalog
  ASSERT_EQ(d.consulted.size(), 1u);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  d = engine.decide(call("Read", {{"file_path", "x"}}));
  EXPECT_TRUE(d.consulted.empty());
}

TEST(Engine, TargetsCombineNameCategoryAndKind) {
  RuleSpec spec = ruleFor("writes-only", {"*"}, Verdict::Deny);
  spec.header.target.kinds = {ToolKind::FileWrite};
  auto engine = PolicyBuilder().defaultAction(Verdict::Allow).rule(spec).build();
  EXPECT_EQ(engine.decide(call("Write", {{"file_path", "a"}})).verdict, Verdict::Deny);
  EXPECT_EQ(engine.decide(call("Read", {{"file_path", "a"}})).verdict, Verdict::Allow);
}

TEST(Engine, ApprovalKeyIsToolAndCanonicalArguments) {
  ToolCall a = call("Write", nlohmann::json::parse(R"({"b":1,"a":{"y":2,"x":1}})"));
  ToolCall b = call("Write", nlohmann::json::parse(R"({"a":{"x":1,"y":2},"b":1})"));
  EXPECT_EQ(approvalKey(a), approvalKey(b));
  EXPECT_EQ(approvalKey(a), R"(Write {"a":{"x":1,"y":2},"b":1})");
  auto engine = PolicyBuilder().build();
  EXPECT_EQ(engine.decide(a).approval_key, approvalKey(a));
}

TEST(Engine, ApprovalKeyBindsShellCommandsAndRelativePathsToTheCwd) {
  auto engine = PolicyBuilder().build();
  auto keyIn = [&](const std::string& tool, nlohmann::json args, const std::string& cwd) {
    ToolCall c = call(tool, std::move(args));
    c.context.cwd = cwd;
    return engine.decide(c).approval_key;
  };
  // A shell command and a relative path mean something else in another directory.
  EXPECT_EQ(keyIn("Bash", {{"command", "rm -rf build"}}, "/work/app"),
            R"(Bash {"command":"rm -rf build"} in /work/app)");
  EXPECT_EQ(keyIn("Bash", {{"command", "rm -rf build"}}, "/work/app/sub/.."),
            R"(Bash {"command":"rm -rf build"} in /work/app)");
  EXPECT_EQ(keyIn("Write", {{"file_path", "notes.txt"}}, "/work/other"),
            R"(Write {"file_path":"notes.txt"} in /work/other)");
  // A search with no directory walks the cwd.
  EXPECT_EQ(keyIn("Grep", {{"pattern", "TODO"}}, "/work/app"),
            R"(Grep {"pattern":"TODO"} in /work/app)");
  EXPECT_EQ(keyIn("Glob", {{"pattern", "src/*"}}, "/work/app"),
            R"(Glob {"pattern":"src/*"} in /work/app)");
  // Absolute and home paths, and calls without paths, are not bound.
  EXPECT_EQ(keyIn("Write", {{"file_path", "/work/app/notes.txt"}}, "/work/app"),
            R"(Write {"file_path":"/work/app/notes.txt"})");
  EXPECT_EQ(keyIn("Read", {{"file_path", "~/notes.txt"}}, "/work/app"),
            R"(Read {"file_path":"~/notes.txt"})");
  EXPECT_EQ(keyIn("Glob", {{"path", "/etc"}, {"pattern", "*"}}, "/work/app"),
            R"(Glob {"path":"/etc","pattern":"*"})");
  EXPECT_EQ(keyIn("deploy", {{"region", "eu"}}, "/work/app"), R"(deploy {"region":"eu"})");
}

TEST(Engine, ModelReasonNamesTheGuardAndTheRule) {
  auto engine = PolicyBuilder().deny("rm_tool", "deleting is not allowed").build();
  Decision d = engine.decide(call("rm_tool"));
  EXPECT_NE(d.model_reason.find("toolguard"), std::string::npos);
  EXPECT_NE(d.model_reason.find("deleting is not allowed"), std::string::npos);
  EXPECT_NE(d.model_reason.find(d.rule_id), std::string::npos);
}

TEST(Engine, OneEngineServesManyThreads) {
  auto engine = PolicyBuilder()
                    .allow("read_*")
                    .deny("delete_*")
                    .requireApproval("write_*")
                    .defaultAction(Verdict::Deny)
                    .build();
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&engine, &wrong] {
      for (int i = 0; i < 2000; ++i) {
        if (engine.decide(call("read_x")).verdict != Verdict::Allow) ++wrong;
        if (engine.decide(call("delete_x")).verdict != Verdict::Deny) ++wrong;
        if (engine.decide(call("write_x")).verdict != Verdict::Ask) ++wrong;
        if (engine.decide(call("other")).verdict != Verdict::Deny) ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace engine_test
}  // namespace toolguard
