// ToolRegistry through its public API: registration, the tool list the
// model sees, and every stage of executeTool in order.
#include "toolguard/tool_registry.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard {
namespace tool_registry_test {

using nlohmann::json;
using testing::makeCall;
using testing::TempDir;

ToolInfo toolNamed(std::string name, std::optional<ToolPolicy> policy = ToolPolicy::Allow) {
  ToolInfo info;
  info.name = std::move(name);
  info.description = "test tool " + info.name;
  info.policy = policy;
  return info;
}

ToolFunction echo(std::atomic<int>* runs = nullptr) {
  return [runs](const ToolInvocation& invocation) {
    if (runs) ++*runs;
    return json{{"echo", invocation.call.args}};
  };
}

// An empty policy (built-in catalog, no rules, default ask): only what a
// test adds decides.
Policy plainPolicy() {
  return PolicyBuilder().buildPolicy();
}

TEST(ToolRegistry, RunsAnAllowedToolAndReturnsItsResult) {
  ToolRegistry registry(plainPolicy(), {});
  std::atomic<int> runs{0};
  registry.registerTool(toolNamed("echo"), echo(&runs));
  ToolOutcome outcome = registry.executeTool(makeCall("echo", {{"x", 1}}));
  ASSERT_EQ(outcome.kind, OutcomeKind::Result) << outcome.reason;
  EXPECT_EQ(outcome.result, (json{{"echo", {{"x", 1}}}}));
  EXPECT_EQ(runs, 1);
  ASSERT_TRUE(outcome.decision);
  EXPECT_EQ(outcome.decision->verdict, Verdict::Allow);
  EXPECT_FALSE(outcome.decision->id.empty());
}

TEST(ToolRegistry, RefusesDuplicateEmptyAndFunctionlessTools) {
  ToolRegistry registry(plainPolicy(), {});
  registry.registerTool(toolNamed("echo"), echo());
  EXPECT_THROW(registry.registerTool(toolNamed("echo"), echo()), RegistryError);
  EXPECT_THROW(registry.registerTool(toolNamed(""), echo()), RegistryError);
  EXPECT_THROW(registry.registerTool(toolNamed("none"), nullptr), RegistryError);
  ToolInfo bad = toolNamed("bad");
  bad.input_schema = {{"type", "object"}, {"properties", {{"p", {{"pattern", "(unclosed"}}}}}};
  EXPECT_THROW(registry.registerTool(bad, echo()), RegistryError);
  EXPECT_EQ(registry.toolNames(), std::vector<std::string>{"echo"});
}

TEST(ToolRegistry, UnknownAndDisabledToolsAreDeniedWithoutRunning) {
  ToolRegistry registry(plainPolicy(), {});
  std::atomic<int> runs{0};
  registry.registerTool(toolNamed("echo"), echo(&runs));
  ToolOutcome unknown = registry.executeTool(makeCall("Bash", {{"command", "ls"}}));
  EXPECT_EQ(unknown.kind, OutcomeKind::Denied);
  EXPECT_NE(unknown.reason.find("no tool named 'Bash'"), std::string::npos);

  registry.setEnabled("echo", false);
  EXPECT_FALSE(registry.isEnabled("echo"));
  ToolOutcome disabled = registry.executeTool(makeCall("echo"));
  EXPECT_EQ(disabled.kind, OutcomeKind::Denied);
  EXPECT_NE(disabled.reason.find("disabled"), std::string::npos);
  EXPECT_EQ(runs, 0);
  EXPECT_TRUE(registry.toolDefinitions().empty());

  registry.setEnabled("echo", true);
  EXPECT_EQ(registry.executeTool(makeCall("echo")).kind, OutcomeKind::Result);
  EXPECT_THROW(registry.setEnabled("nope", true), RegistryError);
}

TEST(ToolRegistry, ToolDefinitionsAreOpenAiFunctionsWithoutDeniedOrDisabledTools) {
  Policy policy = PolicyBuilder().deny("secret_*", "never").buildPolicy();
  ToolRegistry registry(policy, {});
  ToolInfo search = toolNamed("search");
  search.input_schema = {{"type", "object"},
                         {"properties", {{"query", {{"type", "string"}}}}},
                         {"required", {"query"}}};
  registry.registerTool(search, echo());
  registry.registerTool(toolNamed("plain"), echo());
  registry.registerTool(toolNamed("forbidden", ToolPolicy::Deny), echo());
  registry.registerTool(toolNamed("secret_keys"), echo());
  registry.registerTool(toolNamed("off"), echo());
  registry.setEnabled("off", false);

  json list = registry.toolDefinitions();
  ASSERT_EQ(list.size(), 2u) << list.dump();
  EXPECT_EQ(list[0], (json{{"type", "function"},
                           {"function",
                            {{"name", "search"},
                             {"description", "test tool search"},
                             {"parameters", search.input_schema}}}}));
  EXPECT_EQ(list[1]["function"]["name"], "plain");
  EXPECT_EQ(list[1]["function"]["parameters"],
            (json{{"type", "object"}, {"properties", json::object()}}));
}

TEST(ToolRegistry, PolicyDenyStopsTheCallBeforeAnythingRuns) {
  Policy policy = PolicyBuilder().deny("drop_table", "dropping tables is forbidden").buildPolicy();
  ToolRegistry registry(policy, {});
  std::atomic<int> runs{0};
  registry.registerTool(toolNamed("drop_table"), echo(&runs));
  ToolOutcome outcome = registry.executeTool(makeCall("drop_table"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied);
  EXPECT_NE(outcome.reason.find("dropping tables is forbidden"), std::string::npos);
  EXPECT_NE(outcome.modelContent().find("Blocked by toolguard"), std::string::npos);
  EXPECT_EQ(runs, 0);
}

TEST(ToolRegistry, SchemaViolationIsDeniedNamingTheField) {
  ToolRegistry registry(plainPolicy(), {});
  ToolInfo info = toolNamed("search");
  info.input_schema = {{"type", "object"},
                       {"properties", {{"limit", {{"type", "integer"}}}}},
                       {"required", {"limit"}}};
  std::atomic<int> runs{0};
  registry.registerTool(info, echo(&runs));
  ToolOutcome outcome = registry.executeTool(makeCall("search", {{"limit", "ten"}}));
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied);
  EXPECT_NE(outcome.reason.find("limit"), std::string::npos) << outcome.reason;
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(registry.executeTool(makeCall("search", {{"limit", 10}})).kind, OutcomeKind::Result);
}

TEST(ToolRegistry, TheToolRunsWithTheArgumentsValidateArgsSanitized) {
  Policy policy = PolicyBuilder()
                      .validateArgs("fetch_page", "lowercase-url",
                                    [](const ToolCall& call) {
                                      json args = call.args;
                                      args["url"] = "https://example.com/a";
                                      return ArgumentCheck::sanitize(args);
                                    })
                      .buildPolicy();
  ToolRegistry registry(policy, {});
  registry.registerTool(toolNamed("fetch_page"), echo());
  ToolOutcome outcome =
      registry.executeTool(makeCall("fetch_page", {{"url", "HTTPS://EXAMPLE.COM/a"}}));
  ASSERT_EQ(outcome.kind, OutcomeKind::Result) << outcome.reason;
  EXPECT_EQ(outcome.result["echo"]["url"], "https://example.com/a");
}

TEST(ToolRegistry, HeadlessRegistryDeniesAskUnlessTheStoreAllowsIt) {
  TempDir home;
  GuardOptions options;
  options.store = std::make_shared<ApprovalStore>(home.path().string());
  ToolRegistry registry(plainPolicy(), options);
  std::atomic<int> runs{0};
  registry.registerTool(toolNamed("deploy", ToolPolicy::Confirm), echo(&runs));
  ToolCall call = makeCall("deploy", {{"env", "staging"}});
  ToolOutcome refused = registry.executeTool(call);
  EXPECT_EQ(refused.kind, OutcomeKind::Denied);
  EXPECT_EQ(runs, 0);

  ApprovalEntry entry;
  entry.tool = "deploy";
  entry.binding = ApprovalBinding::ExactCall;
  entry.value = approvalKey(call);
  entry.scope = ApprovalScope::Global;
  ASSERT_TRUE(options.store->add(entry));
  ToolOutcome allowed = registry.executeTool(call);
  ASSERT_EQ(allowed.kind, OutcomeKind::Result) << allowed.reason;
  EXPECT_EQ(allowed.decision->approval->by, "store");
  EXPECT_EQ(registry.executeTool(makeCall("deploy", {{"env", "prod"}})).kind, OutcomeKind::Denied);
  EXPECT_EQ(runs, 1);
}

TEST(ToolRegistry, AskGoesToTheApprovalHandlerBeforeTheToolRuns) {
  std::atomic<int> asked{0};
  GuardOptions options;
  options.approval_handler = callbackApprovalHandler([&](const ApprovalRequest& request) {
    ++asked;
    ApprovalAnswer answer;
    answer.outcome = request.call.args.value("env", "") == "staging" ? ApprovalOutcome::AllowOnce
                                                                     : ApprovalOutcome::Deny;
    answer.reason = "not in production";
    answer.by_person = true;
    return answer;
  });
  ToolRegistry registry(plainPolicy(), options);
  registry.registerTool(toolNamed("deploy", ToolPolicy::Confirm), echo());
  EXPECT_EQ(registry.executeTool(makeCall("deploy", {{"env", "staging"}})).kind,
            OutcomeKind::Result);
  ToolOutcome denied = registry.executeTool(makeCall("deploy", {{"env", "prod"}}));
  EXPECT_EQ(denied.kind, OutcomeKind::Denied);
  EXPECT_NE(denied.reason.find("not in production"), std::string::npos) << denied.reason;
  EXPECT_EQ(asked, 2);
}

TEST(ToolRegistry, SetDefaultPolicyAppliesToToolsRegisteredLater) {
  ToolRegistry registry(plainPolicy(), {});
  registry.registerTool(toolNamed("before", std::nullopt), echo());
  registry.setDefaultPolicy(ToolPolicy::Allow);
  registry.registerTool(toolNamed("after", std::nullopt), echo());
  registry.registerTool(toolNamed("own", ToolPolicy::Deny), echo());
  // "before" falls to the policy's default (ask), which headless-by-absence
  // of a handler denies; "after" got the default policy allow.
  EXPECT_EQ(registry.executeTool(makeCall("before")).kind, OutcomeKind::Denied);
  EXPECT_EQ(registry.executeTool(makeCall("after")).kind, OutcomeKind::Result);
  EXPECT_EQ(registry.executeTool(makeCall("own")).kind, OutcomeKind::Denied);
}

TEST(ToolRegistry, ACatalogShellToolRegisteredWithoutAKindIsStillParsed) {
  ToolRegistry registry(GuardOptions{});  // the built-in default policy
  std::atomic<int> runs{0};
  ToolInfo bash = toolNamed("Bash", ToolPolicy::Allow);
  registry.registerTool(bash, echo(&runs));
  ToolOutcome outcome = registry.executeTool(makeCall("Bash", {{"command", "ls && rm -rf ~"}}));
  EXPECT_EQ(outcome.kind, OutcomeKind::Denied) << outcome.reason;
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(registry.executeTool(makeCall("Bash", {{"command", "ls -la"}})).kind,
            OutcomeKind::Result);
}

TEST(ToolRegistry, RegisteringACatalogToolNeverSwitchesItsChecksOff) {
  ToolRegistry registry(GuardOptions{});  // the built-in default policy and catalog
  registry.setDefaultPolicy(ToolPolicy::Allow);
  std::atomic<int> runs{0};
  ToolInfo write = toolNamed("Write", ToolPolicy::Allow);
  write.kind = ToolKind::FileWrite;  // but no path_args: the catalog's are kept
  registry.registerTool(write, echo(&runs));
  ToolInfo bash = toolNamed("Bash", ToolPolicy::Allow);
  bash.kind = ToolKind::Shell;  // but no command_arg
  registry.registerTool(bash, echo(&runs));
  registry.registerTool(toolNamed("WebFetch", std::nullopt), echo(&runs));  // catalog: confirm

  EXPECT_EQ(
      registry.executeTool(makeCall("Write", {{"file_path", "/etc/passwd"}, {"content", "x"}}))
          .kind,
      OutcomeKind::Denied);
  EXPECT_EQ(
      registry.executeTool(makeCall("Bash", {{"command", "rm -rf / --no-preserve-root"}})).kind,
      OutcomeKind::Denied);
  ToolOutcome fetch = registry.executeTool(makeCall("WebFetch", {{"url", "https://example.com"}}));
  EXPECT_EQ(fetch.kind, OutcomeKind::Denied) << "the catalog's confirm beats the default allow";
  EXPECT_EQ(fetch.decision->policy_verdict, Verdict::Ask);
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(
      registry.executeTool(makeCall("Write", {{"file_path", "notes.md"}, {"content", "x"}})).kind,
      OutcomeKind::Result);
}

TEST(ToolRegistry, RefusalsOfUnknownToolsAreAudited) {
  TempDir home;
  GuardOptions options;
  AuditLogOptions audit;
  audit.path = (home.path() / "audit.jsonl").string();
  options.audit_log = std::make_shared<AuditLog>(audit);
  ToolRegistry registry(plainPolicy(), options);
  ToolOutcome outcome = registry.executeTool(makeCall("ghost"));
  ASSERT_EQ(outcome.kind, OutcomeKind::Denied);
  auto records = readAuditLog(audit.path, AuditQuery{});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["tool"], "ghost");
  EXPECT_EQ(records[0]["verdict"], "deny");
  EXPECT_EQ(records[0]["id"], outcome.decision->id);
}

TEST(ToolRegistry, CallbackExceptionsBecomeErrorOutcomes) {
  ToolRegistry registry(plainPolicy(), {});
  registry.registerTool(toolNamed("boom"), [](const ToolInvocation&) -> json {
    throw std::runtime_error("disk on fire");
  });
  registry.registerTool(toolNamed("weird"), [](const ToolInvocation&) -> json { throw 42; });
  ToolOutcome boom = registry.executeTool(makeCall("boom"));
  EXPECT_EQ(boom.kind, OutcomeKind::Error);
  EXPECT_EQ(boom.reason, "tool 'boom' failed: disk on fire");
  EXPECT_EQ(boom.modelContent(), "The tool failed: tool 'boom' failed: disk on fire");
  EXPECT_EQ(registry.executeTool(makeCall("weird")).kind, OutcomeKind::Error);
}

// Filters that write their name into a shared trace, to check the order.
struct TraceFilter : InvocationFilter {
  std::string label;
  std::vector<std::string>* trace;
  TraceFilter(std::string l, std::vector<std::string>* t) : label(std::move(l)), trace(t) {}
  std::string name() const override { return label; }
  ToolOutcome invoke(const ToolInvocation& invocation, const InvocationNext& next) override {
    trace->push_back(label + ">");
    ToolOutcome outcome = next(invocation);
    trace->push_back("<" + label);
    return outcome;
  }
};

struct SuffixFilter : ResultFilter {
  std::string suffix;
  explicit SuffixFilter(std::string s) : suffix(std::move(s)) {}
  std::string name() const override { return "suffix"; }
  void filter(const ToolInvocation&, ToolOutcome& outcome) override {
    if (outcome.ok()) outcome.result = outcome.result.get<std::string>() + suffix;
  }
};

struct ThrowingResultFilter : ResultFilter {
  std::string name() const override { return "broken"; }
  void filter(const ToolInvocation&, ToolOutcome&) override { throw std::runtime_error("bug"); }
};

TEST(ToolRegistry, FiltersRunInOrderAroundTheCallbackAndResultFiltersAfterIt) {
  ToolRegistry registry(plainPolicy(), {});
  std::vector<std::string> trace;
  registry.registerTool(toolNamed("say"), [&](const ToolInvocation&) {
    trace.push_back("tool");
    return json("hi");
  });
  registry.addInvocationFilter(std::make_shared<TraceFilter>("outer", &trace));
  registry.addInvocationFilter(std::make_shared<TraceFilter>("inner", &trace));
  registry.addResultFilter(std::make_shared<SuffixFilter>("-1"));
  registry.addResultFilter(std::make_shared<SuffixFilter>("-2"));
  ToolOutcome outcome = registry.executeTool(makeCall("say"));
  EXPECT_EQ(outcome.result, "hi-1-2");
  EXPECT_EQ(trace, (std::vector<std::string>{"outer>", "inner>", "tool", "<inner", "<outer"}));

  trace.clear();
  registry.setEnabled("say", false);
  (void)registry.executeTool(makeCall("say"));
  EXPECT_TRUE(trace.empty()) << "filters run only for allowed calls";
}

// A filter that tries to run the tool with other arguments than judged.
struct RewritingFilter : InvocationFilter {
  std::string name() const override { return "rewriter"; }
  ToolOutcome invoke(const ToolInvocation& invocation, const InvocationNext& next) override {
    ToolCall other = invocation.call;
    other.args = {{"path", "/etc/shadow"}};
    return next(ToolInvocation{other, invocation.tool, invocation.decision, {}});
  }
};

TEST(ToolRegistry, AFilterCannotChangeTheJudgedCall) {
  ToolRegistry registry(plainPolicy(), {});
  std::atomic<int> runs{0};
  registry.registerTool(toolNamed("read"), echo(&runs));
  registry.addInvocationFilter(std::make_shared<RewritingFilter>());
  ToolOutcome outcome = registry.executeTool(makeCall("read", {{"path", "notes.md"}}));
  EXPECT_EQ(outcome.kind, OutcomeKind::Error);
  EXPECT_NE(outcome.reason.find("different call"), std::string::npos) << outcome.reason;
  EXPECT_EQ(runs, 0);
}

TEST(ToolRegistry, AFailingResultFilterLetsNoOutputThrough) {
  ToolRegistry registry(plainPolicy(), {});
  registry.registerTool(toolNamed("leak"), [](const ToolInvocation&) { return json("secret"); });
  registry.addResultFilter(std::make_shared<ThrowingResultFilter>());
  ToolOutcome outcome = registry.executeTool(makeCall("leak"));
  EXPECT_EQ(outcome.kind, OutcomeKind::Error);
  EXPECT_EQ(outcome.reason, "result filter 'broken' failed: bug");
  EXPECT_TRUE(outcome.result.is_null());
}

TEST(ToolRegistry, CallsRunWhileToolsAreRegistered) {
  ToolRegistry registry(plainPolicy(), {});
  registry.registerTool(toolNamed("echo"), echo());
  std::atomic<bool> stop{false};
  std::atomic<int> results{0};
  std::thread caller([&] {
    while (!stop) {
      if (registry.executeTool(makeCall("echo")).ok()) ++results;
    }
  });
  while (results == 0) std::this_thread::yield();
  for (int i = 0; i < 20; ++i) {
    std::string name = "t";
    name.append(std::to_string(i));
    registry.registerTool(toolNamed(name), echo());
  }
  stop = true;
  caller.join();
  EXPECT_GT(results, 0);
  EXPECT_EQ(registry.toolNames().size(), 21u);
}

// The tool-metadata model's questions: tools up to a risk, of a category,
// read-only ones; registered tools as merged with the catalog.
TEST(ToolRegistry, AnswersQuestionsAboutItsToolsMetadata) {
  ToolRegistry registry(plainPolicy(), {});
  auto tool = [](std::string name, std::string category, RiskLevel risk, bool read_only) {
    ToolInfo info = toolNamed(std::move(name));
    info.metadata.category = std::move(category);
    info.metadata.risk = risk;
    info.metadata.read_only = read_only;
    return info;
  };
  registry.registerTool(tool("add", "computation", RiskLevel::Low, true), echo());
  registry.registerTool(tool("to_pdf", "Document", RiskLevel::Medium, false), echo());
  registry.registerTool(tool("wipe", "admin", RiskLevel::Critical, false), echo());
  registry.registerTool(toolNamed("Bash"), echo());  // the catalog's: shell, high risk
  registry.registerTool(tool("Read", "", RiskLevel::Low, true), echo());  // catalog: filesystem
  registry.setEnabled("add", false);
  auto names = [](const std::vector<ToolInfo>& tools) {
    std::vector<std::string> out;
    for (const ToolInfo& t : tools) out.push_back(t.name);
    return out;
  };
  using Names = std::vector<std::string>;
  EXPECT_EQ(names(registry.toolsUpToRisk(RiskLevel::Low)), (Names{"add", "Read"}));
  EXPECT_EQ(names(registry.toolsUpToRisk(RiskLevel::Medium)), (Names{"add", "to_pdf", "Read"}));
  EXPECT_EQ(names(registry.toolsUpToRisk(RiskLevel::High)),
            (Names{"add", "to_pdf", "Bash", "Read"}));
  EXPECT_EQ(names(registry.toolsInCategory("document")), (Names{"to_pdf"}));
  EXPECT_EQ(names(registry.toolsInCategory("shell")), (Names{"Bash"}));
  EXPECT_EQ(names(registry.toolsInCategory("filesystem")), (Names{"Read"}));
  EXPECT_EQ(names(registry.toolsInCategory("nothing")), Names{});
  EXPECT_EQ(names(registry.readOnlyTools()), (Names{"add", "Read"}));
  EXPECT_FALSE(registry.isEnabled("add")) << "disabled tools are listed; isEnabled tells";
}

}  // namespace tool_registry_test
}  // namespace toolguard
