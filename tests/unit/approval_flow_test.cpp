// The approval flow through Guard::decide: handlers, the session cache,
// what "always allow" is bound to, and that approvals never loosen a deny.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "approval/approval_matching.hpp"
#include "support/calls.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard {
namespace approval_flow_test {

using nlohmann::json;
using testing::makeCall;

ToolCall bash(const std::string& command) {
  ToolCall c = makeCall("Bash", {{"command", command}});
  c.context.session = "s1";
  c.context.agent = "coder";
  return c;
}

ToolCall write(const std::string& path) {
  ToolCall c = makeCall("Write", {{"file_path", path}, {"content", "x"}});
  c.context.session = "s1";
  return c;
}

Engine defaultEngine() {
  return PolicyBuilder().profile("default").build();
}

// A handler that answers from a script and remembers what it was asked.
struct ScriptedPerson {
  std::atomic<int> asked{0};
  ApprovalAnswer answer;
  std::optional<ApprovalRequest> last;
  std::mutex mutex;

  std::shared_ptr<ApprovalHandler> handler() {
    return callbackApprovalHandler([this](const ApprovalRequest& request) {
      ++asked;
      std::lock_guard lock(mutex);
      last = request;
      return answer;
    });
  }
};

Guard guardWith(std::shared_ptr<ApprovalHandler> handler) {
  GuardOptions options;
  options.approval_handler = std::move(handler);
  return Guard(defaultEngine(), options);
}

TEST(ApprovalFlow, WithNoHandlerAskBecomesDenyUnlessAskIsReported) {
  Guard guard(defaultEngine());
  Decision d = guard.decide(bash("terraform plan -out plan.bin"));
  EXPECT_EQ(d.policy_verdict, Verdict::Escalate);  // an unknown command; no LLM: ask
  EXPECT_EQ(d.verdict, Verdict::Deny);
  ASSERT_TRUE(d.approval);
  EXPECT_EQ(d.approval->by, "no-handler");
  EXPECT_NE(d.model_reason.find("no one can be asked"), std::string::npos) << d.model_reason;
  EXPECT_EQ(d.id.size(), 32u);

  GuardOptions report;
  report.report_ask = true;
  Guard hook(defaultEngine(), report);
  Decision asked = hook.decide(bash("terraform plan -out plan.bin"));
  EXPECT_EQ(asked.verdict, Verdict::Ask);
  EXPECT_EQ(asked.approval->by, "unresolved");
}

TEST(ApprovalFlow, HeadlessCallsAreDeniedWithoutAskingAnyone) {
  ScriptedPerson person;
  person.answer.outcome = ApprovalOutcome::AllowOnce;
  Guard guard = guardWith(person.handler());
  ToolCall call = bash("terraform plan");
  call.context.mode = InteractionMode::Headless;
  Decision d = guard.decide(call);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.approval->by, "headless");
  EXPECT_EQ(person.asked, 0);
}

TEST(ApprovalFlow, AllowOnceAllowsThisCallOnly) {
  ScriptedPerson person;
  person.answer.outcome = ApprovalOutcome::AllowOnce;
  Guard guard = guardWith(person.handler());
  Decision first = guard.decide(bash("terraform plan"));
  EXPECT_EQ(first.verdict, Verdict::Allow);
  EXPECT_EQ(first.approval->by, "callback");
  EXPECT_EQ(first.approval->outcome, "allow-once");
  EXPECT_EQ(guard.decide(bash("terraform plan")).verdict, Verdict::Allow);
  EXPECT_EQ(person.asked, 2);  // asked again: nothing was remembered
}

TEST(ApprovalFlow, ThePromptSeesTheReasonAndTheArguments) {
  ScriptedPerson person;
  Guard guard = guardWith(person.handler());
  guard.decide(bash("curl https://example.com"));
  ASSERT_TRUE(person.last);
  EXPECT_EQ(person.last->call.args["command"], "curl https://example.com");
  EXPECT_NE(person.last->decision.reason.find("curl"), std::string::npos);
  EXPECT_EQ(person.last->decision.rule_id, "shell-unknown-command");
  // What a person needs to judge it: how much the tool can do.
  EXPECT_EQ(person.last->tool.risk, RiskLevel::High);
  EXPECT_EQ(person.last->tool.side_effect, SideEffect::Irreversible);
  EXPECT_EQ(person.last->tool.category, "shell");
  EXPECT_GT(person.last->timeout.count(), 0);
}

TEST(ApprovalFlow, DenyCarriesThePersonsReasonToTheModel) {
  ScriptedPerson person;
  person.answer = {ApprovalOutcome::Deny, 0, ApprovalScope::Session, "use the staging cluster"};
  Guard guard = guardWith(person.handler());
  Decision d = guard.decide(bash("terraform apply"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.reason.find("use the staging cluster"), std::string::npos);
  EXPECT_NE(d.model_reason.find("use the staging cluster"), std::string::npos);
  EXPECT_EQ(d.approval->outcome, "deny");
}

TEST(ApprovalFlow, AlwaysAllowTheExactCallRemembersOnlyThatCall) {
  ScriptedPerson person;
  person.answer = {ApprovalOutcome::AlwaysAllow, 0, ApprovalScope::Session, ""};
  Guard guard = guardWith(person.handler());
  EXPECT_EQ(guard.decide(bash("terraform plan")).verdict, Verdict::Allow);
  Decision again = guard.decide(bash("terraform plan"));
  EXPECT_EQ(again.verdict, Verdict::Allow);
  EXPECT_EQ(again.approval->by, "session-cache");
  EXPECT_EQ(again.approval->binding, "exact");
  EXPECT_EQ(person.asked, 1);
  guard.decide(bash("terraform apply"));
  EXPECT_EQ(person.asked, 2);
  // Another session is not covered.
  ToolCall other = bash("terraform plan");
  other.context.session = "s2";
  guard.decide(other);
  EXPECT_EQ(person.asked, 3);
}

TEST(ApprovalFlow, AnExactCallApprovalHoldsInItsDirectoryOnly) {
  ScriptedPerson person;
  person.answer = {ApprovalOutcome::AlwaysAllow, 0, ApprovalScope::Session, ""};
  GuardOptions options;
  options.approval_handler = person.handler();
  Guard guard(PolicyBuilder().requireApproval("Bash").requireApproval("Write").build(), options);
  auto in = [](ToolCall call, const std::string& cwd) {
    call.context.cwd = cwd;
    return call;
  };
  // A shell command: `rm -rf build` approved in /work/app ...
  Decision first = guard.decide(in(bash("rm -rf build"), "/work/app"));
  EXPECT_EQ(first.verdict, Verdict::Allow);
  EXPECT_EQ(first.approval->value, R"(Bash {"command":"rm -rf build"} in /work/app)");
  EXPECT_EQ(guard.decide(in(bash("rm -rf build"), "/work/app")).approval->by, "session-cache");
  EXPECT_EQ(person.asked, 1);
  // ... is not approved in another directory of the same session.
  Decision elsewhere = guard.decide(in(bash("rm -rf build"), "/work/other"));
  EXPECT_EQ(person.asked, 2);
  EXPECT_EQ(elsewhere.approval->by, "callback");
  // A relative path likewise.
  guard.decide(in(write("notes.txt"), "/work/app"));
  EXPECT_EQ(person.asked, 3);
  guard.decide(in(write("notes.txt"), "/work/app"));
  EXPECT_EQ(person.asked, 3);
  guard.decide(in(write("notes.txt"), "/work/other"));
  EXPECT_EQ(person.asked, 4);
  // An absolute path names the same file from anywhere: its approval holds.
  guard.decide(in(write("/work/app/notes.txt"), "/work/app"));
  EXPECT_EQ(person.asked, 5);
  Decision absolute = guard.decide(in(write("/work/app/notes.txt"), "/work/other"));
  EXPECT_EQ(person.asked, 5);
  EXPECT_EQ(absolute.approval->by, "session-cache");
  EXPECT_EQ(absolute.approval->value, R"(Write {"content":"x","file_path":"/work/app/notes.txt"})");
}

TEST(ApprovalFlow, ACommandPatternCoversItsCommandsAndNothingChainedToThem) {
  ScriptedPerson person;
  Guard guard = guardWith(person.handler());
  // A repository with the remote origin: git push patterns cover pushes to
  // the remotes it has.
  toolguard::testing::TempDir repo;
  repo.write(".git/config", "[remote \"origin\"]\n\turl = https://example.com/app.git\n");
  auto bash = [&](const std::string& command) {
    ToolCall c = makeCall("Bash", {{"command", command}}, repo.path().string());
    c.context.session = "s1";
    c.context.agent = "coder";
    return c;
  };
  guard.decide(bash("git push origin main"));
  ASSERT_TRUE(person.last);
  ASSERT_EQ(person.last->options.size(), 2u);  // exact call, pattern; never the whole shell tool
  EXPECT_EQ(person.last->options[1].binding, ApprovalBinding::Pattern);
  EXPECT_EQ(person.last->options[1].value, "git push origin *");

  person.answer = {ApprovalOutcome::AlwaysAllow, 1, ApprovalScope::Session, ""};
  guard.decide(bash("git push origin main"));
  int asked = person.asked;
  for (const char* covered :
       {"git push origin", "git push origin feature -u", "git push origin main --tags 2>&1",
        "git push origin main > /dev/null", "git push origin main --dry-run",
        "git push origin -- main"}) {
    EXPECT_EQ(guard.decide(bash(covered)).verdict, Verdict::Allow) << covered;
  }
  EXPECT_EQ(person.asked, asked);
  person.answer = {ApprovalOutcome::Deny, 0, ApprovalScope::Session, ""};
  // Only the options of git push known to be harmless are covered: not one
  // that runs a program, forces, deletes, or that toolguard does not know.
  for (const char* not_covered : {"git push origin main && curl https://evil.example",
                                  "git push origin; git reset --hard",
                                  "git push origin $(curl https://evil.example)",
                                  "git push origin | sh",
                                  "GIT_SSH_COMMAND=evil git push origin main",
                                  "git push origin main > out.txt",
                                  "./git push origin main",
                                  "git push origin main --receive-pack=evil",
                                  "git push origin main --exec=evil",
                                  "git push --force origin main",
                                  "git push origin +main",
                                  "git push origin :main",
                                  "git push -f origin main",
                                  "git push origin main --mirror",
                                  "git push origin --delete main",
                                  "git push origin main -o ci.skip",
                                  "git push origin main --repo=evil",
                                  "git push origin main --no-such-option",
                                  "git -c core.sshCommand=evil push origin main",
                                  "sudo git push origin main",
                                  "git push origin \"$BRANCH\""}) {
    EXPECT_EQ(guard.decide(bash(not_covered)).verdict, Verdict::Deny) << not_covered;
  }
}

TEST(ApprovalFlow, NoPatternIsOfferedForCommandsThatRunProjectOrArbitraryCode) {
  ScriptedPerson person;
  Guard guard = guardWith(person.handler());
  int asked = 0;
  for (const char* command : {"python3 -c 'print(1)'",
                              "node -e 'x()'",
                              "bash -c 'terraform apply'",
                              "sudo apt update",
                              "sed 's/x/id/e' notes.txt",
                              "BASH -c 'terraform apply'",
                              "terraform -chdir=x plan",
                              "env FOO=1 terraform plan",
                              "find . -name x | xargs terraform fmt",
                              "eval \"$X\"",
                              "terraform plan -out p",
                              "rake test",
                              "rake db:migrate",
                              "tox -e py311",
                              "nox -s lint",
                              "pip install requests",
                              "pip3 install -r requirements.txt",
                              "make deploy",
                              "npm run build",
                              "yarn test",
                              "cargo run --release",
                              "go run ./cmd/x",
                              "bundle exec rspec",
                              "pytest -x",
                              "invoke build",
                              "ansible-playbook site.yml",
                              "docker run alpine",
                              "kubectl apply -f x.yaml",
                              "git commit -m x",
                              "git pull"}) {
    person.last.reset();
    guard.decide(bash(command));
    if (!person.last) continue;  // allowed as ordinary work, or denied: nothing to remember
    ++asked;
    for (const ApprovalOption& option : person.last->options) {
      EXPECT_EQ(option.binding, ApprovalBinding::ExactCall) << command << ": " << option.value;
    }
  }
  EXPECT_GE(asked, 20);
}

// Every pattern a person could write for a program that runs code is
// refused, whatever words it fixes; the listed commands' patterns pass.
TEST(ApprovalFlow, PatternsForCodeRunnersAreRefusedInEverySpelling) {
  const ToolInfo bash_tool = ToolCatalog::builtin().resolve("Bash");
  for (const char* program :
       {"rake",   "tox",   "nox",    "make",      "npm",    "pip",     "pip3", "uv",
        "poetry", "cargo", "go",     "terraform", "pytest", "python3", "bash", "just",
        "gradle", "mvn",   "bundle", "invoke",    "docker", "kubectl"}) {
    for (const char* tail :
         {" *", " install *", " run *", " test *", " build *", " exec *", " -e *", " ps *"}) {
      const std::string pattern = std::string(program) + tail;
      if (pattern == "docker ps *") continue;  // listed: it runs nothing
      EXPECT_FALSE(detail::checkApprovalPattern(bash_tool, pattern)) << pattern;
    }
  }
  for (const char* listed : {"git push *", "git push origin *", "git fetch *", "gh pr list *",
                             "gh issue view *", "docker ps *"}) {
    EXPECT_TRUE(detail::checkApprovalPattern(bash_tool, listed)) << listed;
  }
}

TEST(ApprovalFlow, APathPatternCoversFilesUnderTheDirectoryOnly) {
  ScriptedPerson person;
  Guard guard = guardWith(person.handler());
  guard.decide(write("/tmp/toolguard-outside/a.txt"));
  ASSERT_TRUE(person.last);
  ASSERT_EQ(person.last->options.size(), 3u);  // exact, directory, whole tool
  EXPECT_EQ(person.last->options[1].value, "/tmp/toolguard-outside/**");
  EXPECT_EQ(person.last->options[2].binding, ApprovalBinding::Tool);

  person.answer = {ApprovalOutcome::AlwaysAllow, 1, ApprovalScope::Session, ""};
  guard.decide(write("/tmp/toolguard-outside/a.txt"));
  EXPECT_EQ(guard.decide(write("/tmp/toolguard-outside/sub/b.txt")).approval->by, "session-cache");
  int asked = person.asked;
  person.answer = {ApprovalOutcome::Deny, 0, ApprovalScope::Session, ""};
  EXPECT_EQ(guard.decide(write("/tmp/toolguard-outside/../elsewhere.txt")).verdict, Verdict::Deny);
  EXPECT_EQ(guard.decide(write("/tmp/toolguard-other/b.txt")).verdict, Verdict::Deny);
  EXPECT_EQ(person.asked, asked + 2);
}

TEST(ApprovalFlow, ApprovalsNeverOverrideADeny) {
  ScriptedPerson person;
  person.answer.outcome = ApprovalOutcome::AllowOnce;
  Guard guard = guardWith(person.handler());
  ApprovalEntry everything{"Bash", ApprovalBinding::Tool, "", ApprovalScope::Session, "s1", "", "",
                           ""};
  guard.sessionApprovals().add(everything);
  Decision d = guard.decide(bash("rm -rf ~"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_FALSE(d.approval);
  EXPECT_EQ(person.asked, 0);
}

TEST(ApprovalFlow, ApprovingAToolDoesNotApproveWhatARuleFlags) {
  ScriptedPerson person;
  person.answer = {ApprovalOutcome::Deny, 0, ApprovalScope::Session, ""};
  Guard guard = guardWith(person.handler());
  ApprovalEntry writes{"Write", ApprovalBinding::Tool, "", ApprovalScope::Session, "s1", "", "",
                       ""};
  guard.sessionApprovals().add(writes);
  EXPECT_EQ(guard.decide(write("/work/app/.env")).verdict, Verdict::Deny);  // sensitive-write asks
  EXPECT_EQ(person.asked, 1);
  writes.rule = "sensitive-write";
  guard.sessionApprovals().add(writes);
  EXPECT_EQ(guard.decide(write("/work/app/.env")).verdict, Verdict::Allow);
  // Chosen at the prompt, a broad binding is tied to the rule that asked.
  person.answer = {ApprovalOutcome::AlwaysAllow, 1, ApprovalScope::Session, ""};
  guard.decide(write("/tmp/toolguard-out/a.txt"));
  std::vector<ApprovalEntry> remembered = guard.sessionApprovals().entries("s1");
  EXPECT_EQ(remembered.back().rule, "write-outside-workspace");
  person.answer = {ApprovalOutcome::Deny, 0, ApprovalScope::Session, ""};
  EXPECT_EQ(guard.decide(write("/tmp/toolguard-out/.env")).verdict, Verdict::Deny);
}

TEST(ApprovalFlow, AHandlerThatDoesNotAnswerInTimeDenies) {
  auto never = std::make_shared<std::promise<ApprovalAnswer>>();
  GuardOptions options;
  options.approval_handler =
      asyncApprovalHandler([never](const ApprovalRequest&) { return never->get_future(); });
  options.approval_timeout = std::chrono::milliseconds(50);
  Guard guard(defaultEngine(), options);
  Decision d = guard.decide(bash("terraform plan"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.approval->by, "timeout");
  never->set_value({ApprovalOutcome::AllowOnce, 0, ApprovalScope::Session, ""});  // too late
}

TEST(ApprovalFlow, AnAsyncHandlerMayAnswerFromAnotherThread) {
  GuardOptions options;
  options.approval_handler = asyncApprovalHandler([](const ApprovalRequest&) {
    return std::async(std::launch::async, [] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return ApprovalAnswer{ApprovalOutcome::AllowOnce, 0, ApprovalScope::Session, ""};
    });
  });
  Guard guard(defaultEngine(), options);
  Decision d = guard.decide(bash("terraform plan"));
  EXPECT_EQ(d.verdict, Verdict::Allow);
  EXPECT_EQ(d.approval->by, "async-callback");
}

TEST(ApprovalFlow, HandlerFailuresAndAnswersOutsideTheOfferDeny) {
  Guard throwing = guardWith(callbackApprovalHandler(
      [](const ApprovalRequest&) -> ApprovalAnswer { throw std::runtime_error("ui crashed"); }));
  Decision d = throwing.decide(bash("terraform plan"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.approval->by, "handler-error");
  EXPECT_NE(d.reason.find("ui crashed"), std::string::npos);

  Guard async_throwing = guardWith(asyncApprovalHandler(
      [](const ApprovalRequest&) -> std::future<ApprovalAnswer> { throw std::bad_alloc(); }));
  EXPECT_EQ(async_throwing.decide(bash("terraform plan")).verdict, Verdict::Deny);

  ScriptedPerson person;
  person.answer = {ApprovalOutcome::AlwaysAllow, 7, ApprovalScope::Session, ""};
  Guard bad_option = guardWith(person.handler());
  EXPECT_EQ(bad_option.decide(bash("terraform plan")).verdict, Verdict::Deny);
  // Agent scope is not offered when the call has no agent id.
  person.answer = {ApprovalOutcome::AlwaysAllow, 0, ApprovalScope::Agent, ""};
  ToolCall no_agent = bash("terraform plan");
  no_agent.context.agent.clear();
  EXPECT_EQ(bad_option.decide(no_agent).verdict, Verdict::Deny);
}

TEST(ApprovalFlow, AnAnswerToolguardDoesNotKnowDenies) {
  ScriptedPerson person;
  person.answer.outcome = static_cast<ApprovalOutcome>(7);
  Guard guard = guardWith(person.handler());
  EXPECT_EQ(guard.decide(bash("terraform plan")).verdict, Verdict::Deny);
  EXPECT_TRUE(guard.sessionApprovals().entries("s1").empty());
}

TEST(ApprovalFlow, AutoDenyDeniesWithItsReason) {
  Guard guard = guardWith(autoDenyApprovalHandler("approvals are off in CI"));
  Decision d = guard.decide(bash("terraform plan"));
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.approval->by, "auto-deny");
  EXPECT_NE(d.model_reason.find("approvals are off in CI"), std::string::npos);
}

TEST(ApprovalFlow, ApprovalsBindToTheSanitizedArguments) {
  ScriptedPerson person;
  person.answer = {ApprovalOutcome::AlwaysAllow, 0, ApprovalScope::Session, ""};
  Engine engine = PolicyBuilder()
                      .requireApproval("deploy")
                      .validateArgs("deploy", "pin-region",
                                    [](const ToolCall& call) {
                                      json args = call.args;
                                      args["region"] = "eu-west-1";
                                      return ArgumentCheck::sanitize(args);
                                    })
                      .build();
  GuardOptions options;
  options.approval_handler = person.handler();
  Guard guard(engine, options);
  ToolCall call = makeCall("deploy", {{"region", "us-east-1"}});
  EXPECT_EQ(guard.decide(call).verdict, Verdict::Allow);
  EXPECT_EQ(person.last->call.args["region"], "eu-west-1");  // the person saw what will run
  EXPECT_NE(person.last->options[0].value.find("eu-west-1"), std::string::npos);
}

TEST(ApprovalScopes, ScopeIdsComeFromTheCallContext) {
  CallContext context;
  context.cwd = "/work/app/sub/../";
  context.agent = "coder";
  EXPECT_EQ(scopeIdOf(ApprovalScope::Project, context), "/work/app");
  context.workspace_roots = {"/work/mono"};
  EXPECT_EQ(scopeIdOf(ApprovalScope::Project, context), "/work/mono");
  EXPECT_EQ(scopeIdOf(ApprovalScope::Agent, context), "coder");
  EXPECT_EQ(scopeIdOf(ApprovalScope::Session, context), std::nullopt);
  EXPECT_EQ(scopeIdOf(ApprovalScope::Global, context), "");
  EXPECT_EQ(parseApprovalScope("everywhere"), ApprovalScope::Global);
  EXPECT_EQ(parseApprovalScope("forever"), std::nullopt);
}

TEST(ApprovalScopes, ArbitraryCodeRunnersAreRecognized) {
  for (const char* name : {"bash", "sh", "python3", "python3.12", "node", "eval", "sudo", "env",
                           "xargs", "perl", "ruby3.1"}) {
    EXPECT_TRUE(runsArbitraryCode(name)) << name;
  }
  for (const char* name : {"npm", "git", "terraform", "ls", "pythonic"}) {
    EXPECT_FALSE(runsArbitraryCode(name)) << name;
  }
}

}  // namespace approval_flow_test
}  // namespace toolguard
