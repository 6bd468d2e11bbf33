// The real binary with the LLM validator: `toolguard check` consults it for
// escalated calls when TOOLGUARD_LLM=1 and the endpoint variables are set,
// remembers its answers per session across processes, and `explain` shows
// the request (key redacted), the raw reply and how it was read.
#include <gtest/gtest.h>

#include "cli_fixture.hpp"
#include "support/scripted_chat_server.hpp"

namespace toolguard::testing {
namespace llm_validator_test {

using nlohmann::json;

class LlmCli : public Cli {
 protected:
  RunResult runWithLlm(const std::vector<std::string>& args, const json& call,
                       const std::string& base_url,
                       std::map<std::string, std::string> extra = {}) const {
    std::map<std::string, std::string> environment = env();
    environment["TOOLGUARD_LLM"] = "1";
    environment["TOOLGUARD_LLM_BASE_URL"] = base_url;
    environment["TOOLGUARD_LLM_MODEL"] = "guard-model";
    environment["TOOLGUARD_LLM_API_KEY"] = "sk-e2e-secret";
    environment["TOOLGUARD_LLM_MAX_TURNS"] = "1";
    for (const auto& [k, v] : extra) environment[k] = v;
    return runBinary(TOOLGUARD_BINARY, args, call.dump(), environment, dir.path().string());
  }

  json escalatedCall(const std::string& session = "sess-1") const {
    // No rule knows the command: the default policy escalates it.
    return {{"tool", "Bash"},
            {"args", {{"command", "frobnicate --all"}}},
            {"context", {{"cwd", dir.path().string()}, {"session", session}}}};
  }
};

TEST_F(LlmCli, CheckAsksTheValidatorAboutAnEscalatedCall) {
  ScriptedChatServer server({ScriptedReply::text("DENY: frobnicate rewrites every file")});
  RunResult r = runWithLlm({"check"}, escalatedCall(), server.baseUrl());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_EQ(d["basis"], "llm-validator");
  EXPECT_EQ(d["llm"]["verdict"], "DENY");
  EXPECT_NE(d["model_reason"].get<std::string>().find("frobnicate rewrites every file"),
            std::string::npos);
  ASSERT_EQ(server.requestCount(), 1u);
  EXPECT_NE(server.requests()[0].dump().find("frobnicate --all"), std::string::npos);
  EXPECT_EQ(server.authorizations()[0], "Bearer sk-e2e-secret");
  // The key is in no output and no log line.
  EXPECT_EQ(r.out.find("sk-e2e-secret"), std::string::npos);
  EXPECT_EQ(r.err.find("sk-e2e-secret"), std::string::npos);
  std::string audit = slurp((dir.path() / "home/.toolguard/audit.jsonl").string());
  EXPECT_NE(audit.find("llm-validator"), std::string::npos);
  EXPECT_EQ(audit.find("sk-e2e-secret"), std::string::npos);
}

// The settings the Go guard agent documents work as they are, and ours win.
TEST_F(LlmCli, TheGoGuardAgentsVariablesConfigureTheValidator) {
  ScriptedChatServer server({ScriptedReply::text("DENY: not today")});
  RunResult r = runWithLlm({"check"}, escalatedCall(), "http://127.0.0.1:9/v1",
                           {{"TOOLGUARD_LLM", ""},
                            {"TOOLGUARD_LLM_BASE_URL", ""},
                            {"TOOLGUARD_LLM_MODEL", ""},
                            {"TOOLGUARD_LLM_API_KEY", ""},
                            {"BITCODE_GUARD", "true"},
                            {"BITCODE_GUARD_BASE_URL", server.baseUrl()},
                            {"BITCODE_GUARD_MODEL", "go-guard-model"},
                            {"BITCODE_GUARD_API_KEY", "sk-go-guard"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny") << r.out;
  EXPECT_EQ(d["basis"], "llm-validator");
  ASSERT_EQ(server.requestCount(), 1u);
  EXPECT_EQ(server.requests()[0]["model"], "go-guard-model");
  EXPECT_EQ(server.authorizations()[0], "Bearer sk-go-guard");

  // BITCODE_GUARD=false turns it off; ours, when set, win over theirs.
  r = runWithLlm({"check"}, escalatedCall("s2"), server.baseUrl(), {{"BITCODE_GUARD", "false"}});
  EXPECT_EQ(server.requestCount(), 2u) << "TOOLGUARD_LLM=1 wins over BITCODE_GUARD=false";
  r = runWithLlm({"check"}, escalatedCall("s3"), server.baseUrl(),
                 {{"TOOLGUARD_LLM", ""}, {"BITCODE_GUARD", "false"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "ask");
  EXPECT_EQ(server.requestCount(), 2u);
  // A value neither spelling knows fails closed, naming the variable.
  r = runWithLlm({"check"}, escalatedCall("s4"), server.baseUrl(),
                 {{"TOOLGUARD_LLM", ""}, {"BITCODE_GUARD", "maybe"}});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny");
  EXPECT_NE(r.out.find("BITCODE_GUARD"), std::string::npos) << r.out;
}

TEST_F(LlmCli, WithoutTheSwitchNothingIsSentAndEscalateIsAsk) {
  ScriptedChatServer server({ScriptedReply::text("ALLOW")});
  RunResult r = runWithLlm({"check"}, escalatedCall(), server.baseUrl(), {{"TOOLGUARD_LLM", ""}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "ask");
  EXPECT_EQ(server.requestCount(), 0u);
}

TEST_F(LlmCli, TheSameCallInTheSameSessionIsSentOnceAcrossProcesses) {
  ScriptedChatServer server({ScriptedReply::text("ALLOW"), ScriptedReply::text("ALLOW")});
  json first = json::parse(runWithLlm({"check"}, escalatedCall(), server.baseUrl()).out);
  json second = json::parse(runWithLlm({"check"}, escalatedCall(), server.baseUrl()).out);
  EXPECT_EQ(first["verdict"], "allow");
  EXPECT_EQ(second["verdict"], "allow");
  EXPECT_EQ(second["llm"]["cached"], true);
  EXPECT_EQ(server.requestCount(), 1u);
  json other = json::parse(runWithLlm({"check"}, escalatedCall("sess-2"), server.baseUrl()).out);
  EXPECT_EQ(other["llm"]["cached"], false);
  EXPECT_EQ(server.requestCount(), 2u);
}

TEST_F(LlmCli, AnUnreachableValidatorLeavesTheCallToAPerson) {
  std::string url;
  {
    ScriptedChatServer gone({});
    url = gone.baseUrl();
  }
  RunResult r = runWithLlm({"check"}, escalatedCall(), url);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "ask");
  EXPECT_NE(d["resolution"].get<std::string>().find("could not be reached"), std::string::npos);
}

TEST_F(LlmCli, ABadSettingFailsClosedNamingTheVariable) {
  ScriptedChatServer server({ScriptedReply::text("ALLOW")});
  RunResult r = runWithLlm({"check"}, escalatedCall(), server.baseUrl(),
                           {{"TOOLGUARD_LLM_TIMEOUT_MS", "soon"}});
  EXPECT_NE(r.exit_code, 0);
  json d = json::parse(r.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("TOOLGUARD_LLM_TIMEOUT_MS"), std::string::npos);
  EXPECT_EQ(server.requestCount(), 0u);
}

TEST_F(LlmCli, ExplainShowsTheRequestTheRawReplyAndHowItWasRead) {
  ScriptedChatServer server({ScriptedReply::text("Looks fine to me.\nALLOW")});
  RunResult r = runWithLlm({"explain"}, escalatedCall(), server.baseUrl());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("LLM validator: model guard-model"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("request 1: POST " + server.baseUrl() + "/chat/completions"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Authorization: Bearer [redacted]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("frobnicate --all"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Looks fine to me.\\nALLOW"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("read as: not well formed (more than one line)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Decision with the LLM validator: ask"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("sk-e2e-secret"), std::string::npos);
}

}  // namespace llm_validator_test
}  // namespace toolguard::testing
