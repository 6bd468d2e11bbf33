// The LLM validator inside the Guard (escalated calls only, never loosening
// a deny or an ask), its settings from policy files and the environment,
// and what the audit log keeps of it.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>

#include "support/calls.hpp"
#include "support/scripted_chat_server.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace llm_guard_test {

using nlohmann::json;
using testing::ScriptedChatServer;
using testing::ScriptedReply;

struct GuardFixture {
  ScriptedChatServer server;
  std::atomic<int> asked{0};
  ApprovalOutcome person_says = ApprovalOutcome::AllowOnce;
  GuardOptions options;

  explicit GuardFixture(std::vector<ScriptedReply> script) : server(std::move(script)) {
    LlmSettings s;
    s.enabled = true;
    s.base_url = server.baseUrl();
    s.model = "guard-model";
    s.api_key = "sk-never-logged";
    s.max_turns = 1;
    options.llm_validator = std::make_shared<const LlmValidator>(s, GuardSkillLibrary::builtin());
    options.approval_handler = callbackApprovalHandler([this](const ApprovalRequest&) {
      ++asked;
      ApprovalAnswer answer;
      answer.outcome = person_says;
      return answer;
    });
  }

  Decision decide(const std::string& tool, InteractionMode mode = InteractionMode::Interactive,
                  int argument = 1) {
    Engine engine = PolicyBuilder()
                        .defaultAction(Verdict::Escalate)
                        .deny("wipe_disk", "never")
                        .requireApproval("deploy", "a person decides")
                        .allow("list_things")
                        .build();
    ToolCall call = testing::makeCall(tool, json{{"x", argument}});
    call.context.mode = mode;
    call.context.session = "s";
    return Guard(engine, options).decide(call);
  }
};

TEST(LlmGuard, AllowSettlesAnEscalatedCall) {
  GuardFixture f({ScriptedReply::text("ALLOW")});
  Decision d = f.decide("my_tool");
  EXPECT_EQ(d.verdict, Verdict::Allow);
  EXPECT_EQ(d.policy_verdict, Verdict::Escalate);
  EXPECT_EQ(d.basis, DecisionBasis::LlmValidator);
  ASSERT_TRUE(d.llm);
  EXPECT_EQ(d.llm->verdict, LlmVerdict::Allow);
  EXPECT_NE(d.resolution.find("escalate settled by the LLM validator"), std::string::npos);
  EXPECT_EQ(f.asked, 0);
}

TEST(LlmGuard, DenyIsFinalNoPersonOrApprovalOverrulesIt) {
  GuardFixture f({ScriptedReply::text("DENY: exfiltrates data")});
  Decision d = f.decide("my_tool");
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_EQ(d.basis, DecisionBasis::LlmValidator);
  EXPECT_NE(d.model_reason.find("exfiltrates data"), std::string::npos);
  EXPECT_EQ(f.asked, 0);
}

TEST(LlmGuard, AskAndEveryFailureGoToAPerson) {
  GuardFixture f({ScriptedReply::text("ASK: pushes code"), ScriptedReply::httpError(500, "{}"),
                  ScriptedReply::text("Sure!\nALLOW")});
  int argument = 0;
  for (const char* want : {"pushes code", "HTTP 500", "not well formed"}) {
    // A new call each time: the first answer is remembered for its call.
    Decision d = f.decide("my_tool", InteractionMode::Interactive, ++argument);
    EXPECT_EQ(d.verdict, Verdict::Allow) << want;  // the person allowed it
    ASSERT_TRUE(d.approval) << want;
    EXPECT_NE(d.resolution.find("escalate becomes ask"), std::string::npos) << d.resolution;
    EXPECT_NE(d.reason.find(want), std::string::npos) << d.reason;
  }
  EXPECT_EQ(f.asked, 3);
}

TEST(LlmGuard, HeadlessAllowRunsAndHeadlessAskIsDenied) {
  GuardFixture f({ScriptedReply::text("ALLOW"), ScriptedReply::text("ASK: unsure")});
  EXPECT_EQ(f.decide("my_tool", InteractionMode::Headless).verdict, Verdict::Allow);
  Decision d = f.decide("other_tool", InteractionMode::Headless);
  EXPECT_EQ(d.verdict, Verdict::Deny);
  EXPECT_NE(d.resolution.find("headless"), std::string::npos);
  EXPECT_EQ(f.asked, 0);
}

TEST(LlmGuard, NeverConsultedWhenARuleAllowedAskedOrDenied) {
  GuardFixture f(
      {ScriptedReply::text("ALLOW"), ScriptedReply::text("ALLOW"), ScriptedReply::text("ALLOW")});
  f.person_says = ApprovalOutcome::Deny;
  EXPECT_EQ(f.decide("wipe_disk").verdict, Verdict::Deny);
  Decision asked = f.decide("deploy");
  EXPECT_EQ(asked.verdict, Verdict::Deny);  // the person said no; the model was not asked
  EXPECT_FALSE(asked.llm);
  EXPECT_EQ(f.decide("list_things").verdict, Verdict::Allow);
  EXPECT_EQ(f.server.requestCount(), 0u);
}

TEST(LlmGuard, TheAuditRecordKeepsTheAnswerButNeverTheKey) {
  GuardFixture f({ScriptedReply::text("DENY: reads private keys")});
  testing::TempDir dir;
  AuditLogOptions log;
  log.path = (dir.path() / "audit.jsonl").string();
  f.options.audit_log = std::make_shared<AuditLog>(log);
  f.decide("my_tool");
  f.options.audit_log.reset();
  std::ifstream in(log.path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));  // the chain's anchor
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.find("sk-never-logged"), std::string::npos);
  json record = json::parse(line);
  EXPECT_EQ(record["basis"], "llm-validator");
  EXPECT_EQ(record["llm"]["verdict"], "DENY");
  EXPECT_EQ(record["llm"]["reason"], "reads private keys");
  EXPECT_EQ(record["llm"]["model"], "guard-model");
}

using Env = std::map<std::string, std::string>;
EnvironmentLookup lookup(Env env) {
  return [env = std::move(env)](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
}

TEST(LlmSettingsTest, TheEnvironmentConfiguresTheValidator) {
  LlmSettings s =
      applyLlmEnvironment({}, lookup({{"TOOLGUARD_LLM", "1"},
                                      {"TOOLGUARD_LLM_BASE_URL", "http://127.0.0.1:9/v1"},
                                      {"TOOLGUARD_LLM_MODEL", "m"},
                                      {"TOOLGUARD_LLM_API_KEY", "k"},
                                      {"TOOLGUARD_LLM_MAX_TURNS", "3"},
                                      {"TOOLGUARD_LLM_TIMEOUT_MS", "1500"}}));
  EXPECT_TRUE(s.usable());
  EXPECT_EQ(s.base_url, "http://127.0.0.1:9/v1");
  EXPECT_EQ(s.model, "m");
  EXPECT_EQ(s.api_key, "k");
  EXPECT_EQ(s.max_turns, 3);
  EXPECT_EQ(s.timeout, std::chrono::milliseconds(1500));
  EXPECT_FALSE(applyLlmEnvironment(s, lookup({{"TOOLGUARD_LLM", "0"}})).enabled);
}

TEST(LlmSettingsTest, ABadValueNamesTheVariable) {
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  for (const auto& [name, value] : Pairs{{"TOOLGUARD_LLM", "yes"},
                                         {"TOOLGUARD_LLM_MAX_TURNS", "0"},
                                         {"TOOLGUARD_LLM_MAX_TURNS", "five"},
                                         {"TOOLGUARD_LLM_TIMEOUT_MS", "-1"}}) {
    try {
      applyLlmEnvironment({}, lookup({{name, value}}));
      ADD_FAILURE() << name << "=" << value << " accepted";
    } catch (const LlmSettingsError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

TEST(LlmSettingsTest, ThePolicyNamesTheKeyVariableNeverTheKey) {
  Policy p;
  mergePolicyText(p,
                  "llm:\n  enabled: true\n  base_url: http://h/v1\n  model: m\n"
                  "  api_key_env: MY_KEY\n  max_turns: 2\n  timeout: 5s\n",
                  "user.yaml", PolicyLayer::User);
  EXPECT_TRUE(p.llm.usable());
  EXPECT_EQ(p.llm.max_turns, 2);
  EXPECT_EQ(p.llm.timeout, std::chrono::seconds(5));
  EXPECT_EQ(applyLlmEnvironment(p.llm, lookup({{"MY_KEY", "secret"}})).api_key, "secret");
  try {
    mergePolicyText(p, "llm:\n  api_key: sk-123\n", "bad.yaml", PolicyLayer::User);
    ADD_FAILURE() << "a key in a policy file was accepted";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:2:3"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("api_key_env"), std::string::npos) << e.what();
  }
}

TEST(LlmSettingsTest, AnUntrustedProjectCanTurnItOffButNeverOnOrElsewhere) {
  Policy p;
  mergePolicyText(p, "llm: {enabled: true, base_url: 'http://user/v1', model: m}\n", "user.yaml",
                  PolicyLayer::User);
  mergePolicyText(p, "llm: {base_url: 'http://attacker/v1', model: yes-man, max_turns: 20}\n",
                  "project.yaml", PolicyLayer::Project, /*trusted=*/false);
  EXPECT_EQ(p.llm.base_url, "http://user/v1");
  EXPECT_EQ(p.llm.model, "m");
  EXPECT_EQ(p.llm.max_turns, 5);
  EXPECT_GE(p.warnings.size(), 3u);
  mergePolicyText(p, "llm: {enabled: false}\n", "project.yaml", PolicyLayer::Project, false);
  EXPECT_FALSE(p.llm.enabled);

  Policy off;
  mergePolicyText(off, "llm: {enabled: true, base_url: 'http://p/v1', model: m}\n", "project.yaml",
                  PolicyLayer::Project, false);
  EXPECT_FALSE(off.llm.enabled);
  EXPECT_TRUE(off.llm.base_url.empty());
}

TEST(LlmSettingsTest, AManagedEndpointCannotBeRedirectedOrTurnedOnFromTheEnvironment) {
  Policy p;
  mergePolicyText(p, "llm: {enabled: false, base_url: 'http://corp/v1', model: m}\n", "m.yaml",
                  PolicyLayer::Managed);
  LlmSettings s = applyLlmEnvironment(
      p.llm, lookup({{"TOOLGUARD_LLM", "1"}, {"TOOLGUARD_LLM_BASE_URL", "http://else/v1"}}));
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.base_url, "http://corp/v1");
  // Limits may be lowered, never raised; a managed key variable stays.
  Policy limits;
  mergePolicyText(limits, "llm: {max_turns: 3, timeout: 5s, api_key_env: CORP_KEY}\n", "m.yaml",
                  PolicyLayer::Managed);
  LlmSettings raised =
      applyLlmEnvironment(limits.llm, lookup({{"TOOLGUARD_LLM_MAX_TURNS", "20"},
                                              {"TOOLGUARD_LLM_TIMEOUT_MS", "600000"},
                                              {"TOOLGUARD_LLM_API_KEY", "mine"},
                                              {"CORP_KEY", "corp"}}));
  EXPECT_EQ(raised.max_turns, 3);
  EXPECT_EQ(raised.timeout, std::chrono::seconds(5));
  EXPECT_EQ(raised.api_key, "corp");
  LlmSettings lowered = applyLlmEnvironment(limits.llm, lookup({{"TOOLGUARD_LLM_MAX_TURNS", "1"}}));
  EXPECT_EQ(lowered.max_turns, 1);
}

}  // namespace llm_guard_test
}  // namespace toolguard
