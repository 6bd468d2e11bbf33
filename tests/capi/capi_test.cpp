// The C API (include/toolguard/toolguard.h) through libtoolguard_c.so, as a
// binding calls it: options and calls as JSON text, errors as values.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"
#include "toolguard/toolguard.h"

extern "C" int tg_test_verdict_from_c(const char* options_json, const char* call_json);

namespace {

using nlohmann::json;
using toolguard::testing::TempDir;

struct GuardFree {
  void operator()(tg_guard* g) const { tg_guard_free(g); }
};
using GuardPtr = std::unique_ptr<tg_guard, GuardFree>;

// Options for a guard on the built-in policy alone, its home in `home`.
std::string builtinOnly(const TempDir& home, json extra = json::object()) {
  json o = {{"user", false},
            {"project", false},
            {"managed", false},
            {"home", home.path().string()},
            {"audit", false}};
  o.update(extra);
  return o.dump();
}

GuardPtr newGuard(const std::string& options) {
  tg_error* error = nullptr;
  GuardPtr guard(tg_guard_new(options.c_str(), &error));
  EXPECT_NE(guard, nullptr) << (error ? tg_error_message(error) : "");
  tg_error_free(error);
  return guard;
}

std::string bashCall(const std::string& command, const std::string& cwd = "/workspace") {
  return json{{"tool", "Bash"}, {"args", {{"command", command}}}, {"context", {{"cwd", cwd}}}}
      .dump();
}

json check(tg_guard* guard, const std::string& call) {
  tg_error* error = nullptr;
  char* text = tg_guard_check(guard, call.c_str(), &error);
  EXPECT_NE(text, nullptr) << (error ? tg_error_message(error) : "");
  tg_error_free(error);
  json out = text ? json::parse(text) : json();
  tg_string_free(text);
  return out;
}

// A destructive command, judged and never run.
const std::string kWipeHome = std::string("rm -r") + "f ~";

TEST(CApi, VersionIsTheProjects) {
  EXPECT_STREQ(tg_version(), TOOLGUARD_VERSION);
}

TEST(CApi, DecidesAsTheCommandDoes) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  json allowed = check(guard.get(), bashCall("git status"));
  EXPECT_EQ(allowed["verdict"], "allow");
  EXPECT_EQ(allowed["tool"], "Bash");
  EXPECT_FALSE(allowed["id"].get<std::string>().empty());
  json denied = check(guard.get(), bashCall(kWipeHome));
  EXPECT_EQ(denied["verdict"], "deny");
  EXPECT_FALSE(denied["rule"].is_null());
  EXPECT_NE(denied["model_reason"].get<std::string>().find("toolguard"), std::string::npos);
}

TEST(CApi, DecisionObjectMatchesItsJson) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  const std::string call = bashCall(kWipeHome);
  tg_error* error = nullptr;
  tg_decision* d = tg_guard_decide(guard.get(), call.data(), call.size(), &error);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(tg_decision_verdict(d), TG_VERDICT_DENY);
  json rendered = json::parse(tg_decision_json(d));
  EXPECT_EQ(rendered["reason"], tg_decision_reason(d));
  EXPECT_EQ(rendered["model_reason"], tg_decision_model_reason(d));
  EXPECT_EQ(rendered["rule"], tg_decision_rule(d));
  tg_decision_free(d);
}

TEST(CApi, HeaderCompilesAsCAndDecides) {
  TempDir home;
  EXPECT_EQ(tg_test_verdict_from_c(builtinOnly(home).c_str(), bashCall("git status").c_str()),
            TG_VERDICT_ALLOW);
  EXPECT_EQ(tg_test_verdict_from_c(builtinOnly(home).c_str(), bashCall(kWipeHome).c_str()),
            TG_VERDICT_DENY);
}

TEST(CApi, BadOptionsAreErrorsNamingTheField) {
  for (const auto& [options, names] : std::vector<std::pair<std::string, std::string>>{
           {R"({"polciy_files": []})", "polciy_files"},
           {R"({"builtin": "yes"})", "builtin"},
           {R"({"profiles": ["no-such-profile"]})", "no-such-profile"},
           {R"({"approval_timeout_ms": -1})", "approval_timeout_ms"},
           {R"({"audit": true, "audit": false})", "audit"},
           {R"({"user": fals})", "line 1"},
           {R"({"cwd": "relative/dir"})", "cwd"},
           {R"({"approval_timeout_ms": 9223372036854775808})", "approval_timeout_ms"},
           {R"([])", "object"}}) {
    tg_error* error = nullptr;
    EXPECT_EQ(tg_guard_new(options.c_str(), &error), nullptr) << options;
    ASSERT_NE(error, nullptr) << options;
    EXPECT_NE(std::string(tg_error_message(error)).find(names), std::string::npos)
        << options << ": " << tg_error_message(error);
    tg_error_free(error);
  }
}

TEST(CApi, BrokenPolicyFileNamesFileLineAndColumn) {
  TempDir dir;
  auto file = dir.write("broken.yaml", "version: 1\nrules:\n  - id: x\n    verdikt: deny\n");
  tg_error* error = nullptr;
  json options = {{"policy_files", {file.string()}},
                  {"user", false},
                  {"project", false},
                  {"managed", false},
                  {"audit", false},
                  {"home", dir.path().string()}};
  EXPECT_EQ(tg_guard_new(options.dump().c_str(), &error), nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(tg_error_message(error)).find(file.string() + ":4:"), std::string::npos)
      << tg_error_message(error);
  tg_error_free(error);
}

TEST(CApi, UnreadableCallsAreDeniedNamingTheField) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  for (const auto& [call, names] : std::vector<std::pair<std::string, std::string>>{
           {"not json", "line 1"},
           {R"({"args": {}})", "tool"},
           {R"({"tool": 7})", "tool"},
           {R"({"tool": "Bash", "args": {"command": "ls"}, "args": {}})", "args"},
           {"", "line 1"}}) {
    json d = check(guard.get(), call);
    EXPECT_EQ(d["verdict"], "deny") << call;
    EXPECT_NE(d["reason"].get<std::string>().find(names), std::string::npos)
        << call << ": " << d["reason"];
  }
  std::string with_nul = bashCall("ls");
  with_nul.insert(10, 1, '\0');
  tg_decision* d = tg_guard_decide(guard.get(), with_nul.data(), with_nul.size(), nullptr);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(tg_decision_verdict(d), TG_VERDICT_DENY);
  tg_decision_free(d);
}

TEST(CApi, NullArgumentsAreErrorsNotCrashes) {
  tg_error* error = nullptr;
  EXPECT_EQ(tg_guard_check(nullptr, "{}", &error), nullptr);
  ASSERT_NE(error, nullptr);
  tg_error_free(error);
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  EXPECT_EQ(tg_guard_check(guard.get(), nullptr, nullptr), nullptr);
  EXPECT_EQ(tg_guard_decide(guard.get(), nullptr, 0, nullptr), nullptr);
  EXPECT_EQ(tg_decision_verdict(nullptr), TG_VERDICT_DENY);
  EXPECT_NE(tg_ask_answer(nullptr, "{}", nullptr), 0);
  tg_guard_free(nullptr);
  tg_decision_free(nullptr);
  tg_error_free(nullptr);
  tg_string_free(nullptr);
}

TEST(CApi, AskWithoutAskerIsReportedAsAsk) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  EXPECT_EQ(check(guard.get(), bashCall("git push origin main"))["verdict"], "ask");
}

// An asker that answers every request with `answer` and counts the requests.
struct ScriptedAsker {
  explicit ScriptedAsker(std::string given) : answer(std::move(given)) {}
  std::string answer;
  std::atomic<int> asked{0};
  json last_request;
  static void ask(void* self, tg_ask* ask, const char* request) {
    auto* me = static_cast<ScriptedAsker*>(self);
    me->last_request = json::parse(request);
    ++me->asked;
    tg_error* error = nullptr;
    if (tg_ask_answer(ask, me->answer.c_str(), &error) != 0) {
      me->last_request["answer_error"] = tg_error_message(error);
    }
    tg_error_free(error);
  }
};

TEST(CApi, AskerAlwaysAllowIsRememberedForTheSession) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  ScriptedAsker asker{R"({"outcome": "always-allow", "option": 0, "scope": "session"})"};
  tg_guard_set_asker(guard.get(), &ScriptedAsker::ask, &asker);
  json call = json::parse(bashCall("git push origin main"));
  call["context"]["session"] = "s1";
  EXPECT_EQ(check(guard.get(), call.dump())["verdict"], "allow");
  EXPECT_EQ(asker.asked, 1);
  EXPECT_EQ(asker.last_request["call"]["args"]["command"], "git push origin main");
  EXPECT_EQ(asker.last_request["decision"]["verdict"], "ask");
  EXPECT_FALSE(asker.last_request["options"].empty());
  EXPECT_EQ(asker.last_request["tool_metadata"], (json{{"category", "shell"},
                                                       {"side_effect", "irreversible"},
                                                       {"risk", "high"},
                                                       {"read_only", false}}));
  json again = check(guard.get(), call.dump());
  EXPECT_EQ(again["verdict"], "allow");
  EXPECT_EQ(again["approval"]["by"], "session-cache");
  EXPECT_EQ(asker.asked, 1);
}

TEST(CApi, AskerDenyCarriesThePersonsReason) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  ScriptedAsker asker{R"({"outcome": "deny", "reason": "not on a Friday"})"};
  tg_guard_set_asker(guard.get(), &ScriptedAsker::ask, &asker);
  json d = check(guard.get(), bashCall("git push origin main"));
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["model_reason"].get<std::string>().find("not on a Friday"), std::string::npos)
      << d.dump();
}

TEST(CApi, AskerSaysNobodyAnswered) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  ScriptedAsker asker{R"({"outcome": "deny", "by_person": false, "reason": "cancelled"})"};
  tg_guard_set_asker(guard.get(), &ScriptedAsker::ask, &asker);
  const std::string call = bashCall("git push origin main");
  tg_decision* d = tg_guard_decide(guard.get(), call.data(), call.size(), nullptr);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(tg_decision_verdict(d), TG_VERDICT_DENY);
  const int policy = tg_decision_policy_verdict(d);  // the built-in policy escalates a push
  EXPECT_TRUE(policy == TG_VERDICT_ASK || policy == TG_POLICY_ESCALATE) << policy;
  const std::string reason = tg_decision_model_reason(d);
  EXPECT_EQ(reason.find("denied by a person"), std::string::npos) << reason;
  EXPECT_NE(reason.find("cancelled"), std::string::npos) << reason;
  tg_decision_free(d);
}

TEST(CApi, AskerBadAnswerDeniesAndSaysWhy) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  for (const std::string answer :
       {R"({"outcome": "yes"})", R"({"outcome": "always-allow", "option": 99, "scope": "session"})",
        R"({"outcome": "always-allow", "option": 0})", R"({"outcome": "allow-once", "x": 1})",
        R"({"outcome": "allow-once", "by_person": false})", "nope"}) {
    ScriptedAsker asker{answer};
    tg_guard_set_asker(guard.get(), &ScriptedAsker::ask, &asker);
    json d = check(guard.get(), bashCall("git push origin main"));
    EXPECT_EQ(d["verdict"], "deny") << answer;
    EXPECT_TRUE(asker.last_request.contains("answer_error")) << answer;
  }
}

TEST(CApi, AskerAnsweringLateFromAnotherThreadTimesOutToDeny) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home, {{"approval_timeout_ms", 50}}));
  std::vector<std::thread> late;
  auto asker = [](void* threads, tg_ask* ask, const char*) {
    static_cast<std::vector<std::thread>*>(threads)->emplace_back([ask] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      tg_ask_answer(ask, R"({"outcome": "allow-once"})", nullptr);
    });
  };
  tg_guard_set_asker(guard.get(), asker, &late);
  json d = check(guard.get(), bashCall("git push origin main"));
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["approval"]["by"], "timeout") << d.dump();
  for (auto& t : late) t.join();
}

TEST(CApi, ManyThreadsOnOneGuard) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const bool bad = (i + t) % 2 == 0;
        json d = check(guard.get(), bashCall(bad ? kWipeHome : "git status",
                                             "/tmp/cwd-" + std::to_string(i % 5)));
        if (d["verdict"] != (bad ? "deny" : "allow")) ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

TEST(CApi, AuditLogGetsEveryDecisionAndMalformedCalls) {
  TempDir home;
  auto log = home.path() / "audit.jsonl";
  GuardPtr guard = newGuard(builtinOnly(home, {{"audit", true}}));
  check(guard.get(), bashCall("git status"));
  check(guard.get(), "{not json");
  std::ifstream in(log);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 3);  // the chain's anchor, then the two decisions
}

TEST(CApi, AbortRuleOfAPolicyFile) {
  TempDir dir;
  auto file = dir.write("abort.yaml", R"(version: 1
rules:
  - id: stop-deploys
    tool: Bash
    command: {glob: "deploy *"}
    verdict: abort
    reason: deploys end the session
)");
  json options = json::parse(builtinOnly(dir));
  options["policy_files"] = {file.string()};
  GuardPtr guard = newGuard(options.dump());
  json d = check(guard.get(), bashCall("deploy prod"));
  EXPECT_EQ(d["verdict"], "abort");
  EXPECT_EQ(d["rule"], "stop-deploys");
}

}  // namespace

namespace {

// The call an asker is shown is call JSON the guard itself reads back, roots included.
TEST(CApi, AskRequestCallReadsBackAsTheSameCall) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  ScriptedAsker asker{R"({"outcome": "allow-once"})"};
  tg_guard_set_asker(guard.get(), &ScriptedAsker::ask, &asker);
  json call = json::parse(bashCall("git push origin main"));
  call["context"]["roots"] = {"/workspace", "/srv/shared"};
  call["context"]["agent"] = "a1";
  check(guard.get(), call.dump());
  ASSERT_EQ(asker.asked, 1);
  json shown = asker.last_request["call"];
  EXPECT_EQ(shown["context"]["roots"], call["context"]["roots"]) << shown.dump();
  EXPECT_EQ(shown["context"]["agent"], "a1");
  tg_guard_set_asker(guard.get(), nullptr, nullptr);
  json again = check(guard.get(), shown.dump());
  EXPECT_EQ(again["verdict"], "ask") << again.dump();
  EXPECT_EQ(again["approval_key"], asker.last_request["decision"]["approval_key"]);
}

}  // namespace

namespace {

// An asker that answers inside its callback, after the approval timeout:
// the guard has stopped waiting, so the late answer denies.
TEST(CApi, InlineAnswerAfterTheTimeoutDenies) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home, {{"approval_timeout_ms", 30}}));
  auto slow = [](void*, tg_ask* ask, const char*) {
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    tg_ask_answer(ask, R"({"outcome": "allow-once"})", nullptr);
  };
  tg_guard_set_asker(guard.get(), slow, nullptr);
  json d = check(guard.get(), bashCall("git push origin main"));
  EXPECT_EQ(d["verdict"], "deny") << d.dump();
}

// Setting an asker keeps what the guard counted and remembered.
TEST(CApi, SettingAnAskerKeepsRateLimitsAndSessionApprovals) {
  TempDir dir;
  auto file = dir.write("limits.yaml", R"(version: 1
rate_limits:
  - tool: Read
    max_calls: 2
    window: 1h
)");
  json options = json::parse(builtinOnly(dir));
  options["policy_files"] = {file.string()};
  GuardPtr guard = newGuard(options.dump());
  const std::string read = json{{"tool", "Read"},
                                {"args", {{"file_path", "/workspace/a.txt"}}},
                                {"context", {{"cwd", "/workspace"}}}}
                               .dump();
  EXPECT_EQ(check(guard.get(), read)["verdict"], "allow");
  EXPECT_EQ(check(guard.get(), read)["verdict"], "allow");
  ScriptedAsker asker{R"({"outcome": "always-allow", "option": 0, "scope": "session"})"};
  tg_guard_set_asker(guard.get(), &ScriptedAsker::ask, &asker);
  EXPECT_EQ(check(guard.get(), read)["verdict"], "deny");
  json push = json::parse(bashCall("git push origin main"));
  push["context"]["session"] = "s1";
  EXPECT_EQ(check(guard.get(), push.dump())["verdict"], "allow");
  tg_guard_set_asker(guard.get(), nullptr, nullptr);
  EXPECT_EQ(check(guard.get(), read)["verdict"], "deny");
  EXPECT_EQ(check(guard.get(), push.dump())["verdict"], "allow");  // remembered for the session
  EXPECT_EQ(asker.asked, 1);
}

// The guard's own policy files and audit log cannot be written by the agent.
TEST(CApi, OwnPolicyFileAndAuditLogAreGuarded) {
  TempDir dir;
  TempDir home;  // apart: toolguard's home is guarded whole
  auto file = dir.write("ws/team.yaml", "version: 1\n");
  json options = json::parse(builtinOnly(home));
  options["policy_files"] = {file.string()};
  options["audit"] = true;
  options["audit_log"] = (dir.path() / "ws/logs/audit.jsonl").string();
  GuardPtr guard = newGuard(options.dump());
  const std::string cwd = (dir.path() / "ws").string();
  for (const std::string target : {"team.yaml", "logs/audit.jsonl"}) {
    json write = {{"tool", "Write"},
                  {"args", {{"file_path", target}, {"content", "default: allow"}}},
                  {"context", {{"cwd", cwd}}}};
    EXPECT_EQ(check(guard.get(), write.dump())["verdict"], "deny") << target;
  }
  EXPECT_EQ(check(guard.get(), json{{"tool", "Write"},
                                    {"args", {{"file_path", "notes.txt"}, {"content", "x"}}},
                                    {"context", {{"cwd", cwd}}}}
                                   .dump())["verdict"],
            "allow");
}

// Without a cwd in the call or the options, a call is made where the process is now.
TEST(CApi, CallWithoutCwdIsJudgedWhereTheProcessIsNow) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "ws");
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(dir.path() / "ws");
  GuardPtr guard = newGuard(builtinOnly(dir));
  std::filesystem::current_path("/etc");
  json d =
      check(guard.get(), R"({"tool": "Write", "args": {"file_path": "passwd", "content": "x"}})");
  std::filesystem::current_path(before);
  EXPECT_EQ(d["verdict"], "deny") << d.dump();
}

// Names in another case: a tool that reads them without regard to case (Go's
// encoding/json) would run what the guard did not judge.
TEST(CApi, ArgumentNamesInAnotherCaseAreDenied) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  for (const json& args :
       {json{{"command", "ls"}, {"Command", kWipeHome}}, json{{"COMMAND", kWipeHome}}}) {
    json d =
        check(guard.get(),
              json{{"tool", "Bash"}, {"args", args}, {"context", {{"cwd", "/workspace"}}}}.dump());
    EXPECT_EQ(d["verdict"], "deny") << args.dump();
  }
  json write = {{"tool", "Write"},
                {"args", {{"File_Path", "/etc/passwd"}, {"content", "x"}}},
                {"context", {{"cwd", "/workspace"}}}};
  json d = check(guard.get(), write.dump());
  EXPECT_EQ(d["verdict"], "deny") << d.dump();
  EXPECT_NE(d["reason"].get<std::string>().find("file_path"), std::string::npos) << d.dump();
}

TEST(CApi, ToolNameWithAControlCharacterIsDenied) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  EXPECT_EQ(check(guard.get(),
                  R"({"tool": "Bash\u0000", "args": {"command": "ls"}, "context": {"cwd": "/"}})")
                ["verdict"],
            "deny");
  EXPECT_EQ(check(guard.get(),
                  R"({"tool": "Bash\u0001", "args": {"command": "ls"}, "context": {"cwd": "/"}})")
                ["verdict"],
            "deny");
}

TEST(CApi, CwdOfAnotherUsersHomeIsNotAbsolute) {
  TempDir home;
  GuardPtr guard = newGuard(builtinOnly(home));
  json d =
      check(guard.get(),
            R"({"tool": "Bash", "args": {"command": "ls"}, "context": {"cwd": "~nosuchuser/x"}})");
  EXPECT_EQ(d["verdict"], "deny") << d.dump();
}

}  // namespace
