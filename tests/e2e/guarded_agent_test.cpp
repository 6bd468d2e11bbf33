// The guarded_agent example end to end: the real binary against a scripted
// OpenAI-compatible server on loopback, with real tools in a temporary
// working directory.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_fixture.hpp"
#include "support/scripted_chat_server.hpp"

namespace toolguard::testing {
namespace guarded_agent_test {

using nlohmann::json;

class GuardedAgent : public Cli, public ::testing::WithParamInterface<bool> {
 protected:
  std::filesystem::path workspace() const {
    auto path = dir.path() / "ws";
    std::filesystem::create_directories(path);
    return path;
  }

  RunResult runAgent(const ScriptedChatServer& server, std::vector<std::string> extra) const {
    std::vector<std::string> args = {"--base-url", server.baseUrl(), "--model", "scripted"};
    if (GetParam()) args.push_back("--stream");
    args.insert(args.end(), extra.begin(), extra.end());
    auto environment = env();
    environment["OPENAI_API_KEY"] = "sk-e2e";
    return runBinary(GUARDED_AGENT_BINARY, args, "", environment, workspace().string());
  }

  static std::vector<json> events(const std::string& out) {
    std::vector<json> list;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) list.push_back(json::parse(line));
    return list;
  }

  static const json* findEvent(const std::vector<json>& list, const std::string& type,
                               const std::string& tool) {
    for (const auto& e : list) {
      if (e["event"] == type && e.value("tool", "") == tool) return &e;
    }
    return nullptr;
  }
};

ChatToolCall call(std::string id, std::string name, json args) {
  return ChatToolCall{std::move(id), std::move(name), args.dump()};
}

TEST_P(GuardedAgent, RunsAllowedToolsAndTellsTheModelWhyOthersWereBlocked) {
  ScriptedChatServer server(
      {ScriptedReply::toolCalls(
           {call("c1", "run_shell", {{"command", "echo hello-from-shell"}}),
            call("c2", "write_file", {{"path", "notes.txt"}, {"content", "hi"}}),
            call("c3", "run_shell", {{"command", "ls && rm -rf ~"}}),
            call("c4", "write_file", {{"path", "../../../../etc/passwd"}, {"content", "x"}})}),
       ScriptedReply::text("All done.")});
  RunResult r = runAgent(server, {"tidy up"});
  auto list = events(r.out);
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(list.back()["event"], "end");
  const json* shell = findEvent(list, "tool-call-completed", "run_shell");
  ASSERT_NE(shell, nullptr) << r.out;
  EXPECT_EQ((*shell)["outcome"]["result"]["output"], "hello-from-shell\n");
  EXPECT_EQ(slurp((workspace() / "notes.txt").string()), "hi");
  if (!GetParam()) {
    // Not streaming, the first deny (c3) ends the generation: c4 is not judged.
    EXPECT_EQ(r.exit_code, 5) << r.err << r.out;
    EXPECT_EQ(list.back()["stop"], "denied");
    EXPECT_NE(list.back()["reason"].get<std::string>().find("Blocked by toolguard"),
              std::string::npos);
    EXPECT_EQ(findEvent(list, "tool-call-canceled", "write_file"), nullptr);
    EXPECT_EQ(server.requestCount(), 1u);
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(list.back()["stop"], "completed");

  // Both refused calls reach the model as tool messages that say why.
  ASSERT_EQ(server.requestCount(), 2u);
  json messages = server.requests()[1]["messages"];
  ASSERT_EQ(messages.size(), 7u) << messages.dump();
  std::string rm_reason = messages[5]["content"];
  std::string passwd_reason = messages[6]["content"];
  EXPECT_EQ(messages[5]["tool_call_id"], "c3");
  EXPECT_EQ(rm_reason.rfind("Blocked by toolguard", 0), 0u) << rm_reason;
  EXPECT_EQ(passwd_reason.rfind("Blocked by toolguard", 0), 0u) << passwd_reason;
  EXPECT_EQ(server.authorizations()[0], "Bearer sk-e2e");
}

TEST_P(GuardedAgent, APolicyFileCanAbortTheGeneration) {
  auto policy = dir.write("abort.yaml", R"(rules:
  - id: no-network-tools
    tool: run_shell
    shell: "curl *"
    verdict: abort
    reason: network access ends this session
)");
  ScriptedChatServer server(
      {ScriptedReply::toolCalls(
           {call("c1", "run_shell", {{"command", "curl https://x.test"}}),
            call("c2", "write_file", {{"path", "after.txt"}, {"content", "x"}})}),
       ScriptedReply::text("never")});
  RunResult r = runAgent(server, {"--policy", policy.string(), "fetch it"});
  EXPECT_EQ(r.exit_code, 3) << r.err << r.out;
  auto list = events(r.out);
  ASSERT_GE(list.size(), 2u);
  EXPECT_EQ(list[list.size() - 2]["event"], "tool-call-aborted");
  EXPECT_EQ(list.back()["stop"], "aborted");
  EXPECT_NE(list.back()["reason"].get<std::string>().find("network access ends this session"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(workspace() / "after.txt"));
  EXPECT_EQ(server.requestCount(), 1u);
}

TEST_P(GuardedAgent, AnUnreachableServerIsAnErrorExit) {
  ScriptedChatServer server({ScriptedReply::httpError(401, R"({"error":{"message":"bad key"}})")});
  RunResult r = runAgent(server, {"hello"});
  EXPECT_EQ(r.exit_code, 1);
  auto list = events(r.out);
  ASSERT_EQ(list.size(), 1u) << r.out;
  EXPECT_EQ(list[0]["stop"], "error");
  EXPECT_NE(list[0]["reason"].get<std::string>().find("bad key"), std::string::npos);
}

TEST_F(Cli, GuardedAgentRefusesBadUsage) {
  RunResult r = runBinary(GUARDED_AGENT_BINARY, {"--model", "m"}, "", env());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage:"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(StreamedAndNot, GuardedAgent, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Streaming" : "Plain"; });

}  // namespace guarded_agent_test
}  // namespace toolguard::testing
