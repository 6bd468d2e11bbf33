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
