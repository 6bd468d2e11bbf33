// `toolguard mcp` end to end, between real MCP peers (the official
// TypeScript SDK's stdio client and the reference filesystem server; the
// fixture and how the server's input is recorded: mcp_proxy_fixture.hpp).
#include <httplib.h>

#include <chrono>
#include <thread>

#include "e2e/mcp_proxy_fixture.hpp"
#include "support/serve_process.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

TEST_F(McpProxy, ListsTheServersToolsAndHidesThoseThePolicyDenies) {
  ClientRun reference = direct({listStep()});
  ASSERT_EQ(reference.run.exit_code, 0) << reference;
  json expected = reference.step(0);
  ASSERT_TRUE(expected.contains("tools")) << reference;
  // The server this test was written for (a newer one may list more).
  for (const std::string& tool : kServerTools) {
    EXPECT_TRUE(contains(expected["tools"].get<std::vector<std::string>>(), tool)) << tool;
  }

  ClientRun open = throughProxy({listStep()});
  ASSERT_EQ(open.run.exit_code, 0) << open;
  json listed = open.step(0);
  // Nothing denied outright: the same tools, names and annotations.
  EXPECT_EQ(listed["tools"], expected["tools"]) << open;
  EXPECT_EQ(listed["annotations"], expected["annotations"]);

  ClientRun guarded = throughProxy({listStep()}, {"--policy", policyFile()});
  ASSERT_EQ(guarded.run.exit_code, 0) << guarded;
  std::vector<std::string> names = guarded.step(0).value("tools", std::vector<std::string>());
  EXPECT_FALSE(contains(names, "move_file")) << guarded;
  std::vector<std::string> rest = expected["tools"].get<std::vector<std::string>>();
  rest.erase(std::find(rest.begin(), rest.end(), "move_file"));
  EXPECT_EQ(names, rest);  // only a conditional abort: create_directory stays
}

TEST_F(McpProxy, ReadsAFileInsideTheWorkspace) {
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun r =
      throughProxy({callStep("read_text_file", {{"path", notes}})}, {"--policy", policyFile()});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  json line = r.step(0);
  ASSERT_TRUE(line.contains("result")) << r;
  EXPECT_FALSE(line["result"].value("isError", false)) << r;
  EXPECT_EQ(toolResultText(line["result"]), "the notes of the workspace\n");

  std::vector<json> received = serverCalls("read_text_file");
  ASSERT_EQ(received.size(), 1u) << slurp(serverLog().string());
  EXPECT_EQ(received[0]["params"]["arguments"], json({{"path", notes}}));  // unchanged
}

// The server's annotations are its own claims: they never loosen the policy's default.
TEST_F(McpProxy, ReadOnlyAnnotatedToolsNeverRunUnderADenyDefault) {
  const std::string notes = (workspace() / "notes.txt").string();
  const std::string deny_all = dir.write("policies/deny.yaml", "version: 1\ndefault: deny\n");
  ClientRun r = throughProxy({listStep(), callStep("read_text_file", {{"path", notes}}),
                              callStep("list_directory", {{"path", workspace().string()}})},
                             {"--policy", deny_all});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  // Both are annotated readOnlyHint by the server, and neither reaches it.
  expectBlocked(r.step(1), "read_text_file", "the default verdict is deny");
  expectBlocked(r.step(2), "list_directory", "the default verdict is deny");
  EXPECT_TRUE(serverCalls("read_text_file").empty()) << slurp(serverLog().string());
  EXPECT_TRUE(serverCalls("list_directory").empty()) << slurp(serverLog().string());
  std::vector<json> records = auditRecords();
  ASSERT_EQ(records.size(), 2u) << slurp(auditLog().string());
  EXPECT_EQ(records[0].value("basis", ""), "default");
  EXPECT_EQ(records[0].value("verdict", ""), "deny");

  // What the policy allows by name runs; the path rules still judge it.
  const std::string reads = dir.write("policies/reads.yaml", R"(version: 1
default: deny
rules:
  - id: fs-reads
    tool: mcp__fs__read_text_file
    verdict: allow
)");
  r = throughProxy({callStep("read_text_file", {{"path", notes}}),
                    callStep("read_text_file", {{"path", (workspace() / ".env").string()}}),
                    callStep("list_directory", {{"path", workspace().string()}})},
                   {"--policy", reads});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  EXPECT_EQ(toolResultText(r.step(0).value("result", json::object())),
            "the notes of the workspace\n")
      << r;
  expectBlocked(r.step(1), "read_text_file", ".env");
  expectBlocked(r.step(2), "list_directory", "the default verdict is deny");
}

TEST_F(McpProxy, UnderTheBuiltInPolicyAReadOnlyToolIsAskedAboutLikeAnyUnknownTool) {
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun r = throughProxy({callStep("read_text_file", {{"path", notes}})});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  // default: ask, and nobody can be asked here (no elicitation, no terminal).
  expectBlocked(r.step(0), "read_text_file", "toolguard");
  EXPECT_TRUE(serverCalls("read_text_file").empty()) << slurp(serverLog().string());
  std::vector<json> records = auditRecords();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].value("policy_verdict", ""), "ask");
  EXPECT_EQ(records[0].value("basis", ""), "default");
}

TEST_F(McpProxy, BlocksAWriteOutsideTheWorkspaceBeforeTheServerSeesIt) {
  // ws/../outside.txt is the temporary directory's outside.txt: next to the workspace.
  const std::string outside = (workspace() / ".." / "outside.txt").string();
  ClientRun r =
      throughProxy({callStep("write_file", {{"path", outside}, {"content", "escaped"}}),
                    callStep("read_text_file", {{"path", (workspace() / "notes.txt").string()}})},
                   {"--policy", policyFile()});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  expectBlocked(r.step(0), "write_file", "outside the workspace");
  EXPECT_FALSE(fs::exists(dir.path() / "outside.txt"));
  EXPECT_TRUE(serverCalls("write_file").empty()) << slurp(serverLog().string());
  // The session goes on: the next call reaches the server.
  EXPECT_EQ(toolResultText(r.step(1).value("result", json::object())),
            "the notes of the workspace\n")
      << r;
  EXPECT_EQ(serverCalls("read_text_file").size(), 1u);
}

TEST_F(McpProxy, BlocksAWriteToDotEnvBeforeTheServerSeesIt) {
  ClientRun r = throughProxy({callStep(
      "write_file", {{"path", (workspace() / ".env").string()}, {"content", "KEY=1\n"}})});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  expectBlocked(r.step(0), "write_file", "secrets");
  EXPECT_FALSE(fs::exists(workspace() / ".env"));
  EXPECT_TRUE(serverCalls("write_file").empty()) << slurp(serverLog().string());
  // The server is there all the same: it received the handshake.
  std::vector<json> received = serverReceived();
  ASSERT_FALSE(received.empty());
  EXPECT_EQ(received[0].value("method", ""), "initialize");
}

TEST_F(McpProxy, BlocksACallThePolicyDeniesEvenWhenTheClientCallsAnUnlistedTool) {
  const std::string notes = (workspace() / "notes.txt").string();
  const std::string moved = (workspace() / "moved.txt").string();
  ClientRun r = throughProxy({callStep("move_file", {{"source", notes}, {"destination", moved}})},
                             {"--policy", policyFile()});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  expectBlocked(r.step(0), "move_file", "moving files is not allowed here");
  EXPECT_TRUE(fs::exists(notes));
  EXPECT_FALSE(fs::exists(moved));
  EXPECT_TRUE(serverCalls("move_file").empty()) << slurp(serverLog().string());
}

TEST_F(McpProxy, AnswersAnAbortWithAJsonRpcError) {
  const std::string forbidden = (workspace() / "forbidden").string();
  const std::string allowed = (workspace() / "allowed").string();
  ClientRun r = throughProxy({callStep("create_directory", {{"path", forbidden}}),
                              callStep("create_directory", {{"path", allowed}})},
                             {"--policy", policyFile()});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  json aborted = r.step(0);
  ASSERT_TRUE(aborted.contains("error")) << r;
  EXPECT_TRUE(aborted["error"]["code"].is_number_integer());
  EXPECT_NE(aborted["error"].dump().find("forbidden directories stop the agent"), std::string::npos)
      << aborted.dump();
  EXPECT_FALSE(fs::exists(forbidden));
  // The condition holds for that path only: the other one is an ordinary
  // ask (create_directory is not read-only), which nobody can answer here.
  json asked = r.step(1);
  EXPECT_FALSE(asked.contains("error")) << r;
  EXPECT_TRUE(asked.value("result", json::object()).value("isError", false)) << r;
  EXPECT_EQ(toolResultText(asked["result"]).find("stopped the generation"), std::string::npos);
  EXPECT_TRUE(serverCalls("create_directory").empty()) << slurp(serverLog().string());
}

TEST_F(McpProxy, AuditsEveryDecisionWithTheServersName) {
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun r = throughProxy(
      {listStep(), callStep("read_text_file", {{"path", notes}}),
       callStep("write_file",
                {{"path", (workspace() / ".." / "outside.txt").string()}, {"content", "x"}}),
       callStep("write_file", {{"path", (workspace() / ".env").string()}, {"content", "x"}}),
       callStep("move_file",
                {{"source", notes}, {"destination", (workspace() / "b.txt").string()}})},
      {"--policy", policyFile()});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  ASSERT_EQ(r.lines.size(), 5u) << r;

  struct Expected {
    std::string tool, verdict, policy_verdict, rule;
  };
  const std::vector<Expected> expected = {
      {"mcp__fs__read_text_file", "allow", "allow", "(any)"},
      {"mcp__fs__write_file", "deny", "ask", "write-outside-workspace"},
      {"mcp__fs__write_file", "deny", "ask", "sensitive-write"},
      {"mcp__fs__move_file", "deny", "deny", "no-moves"},
  };
  // One record per tools/call, none for the list.
  std::vector<json> records = auditRecords();
  ASSERT_EQ(records.size(), expected.size()) << slurp(auditLog().string());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(records[i].dump());
    EXPECT_EQ(records[i].value("tool", ""), expected[i].tool);
    EXPECT_EQ(records[i].value("verdict", ""), expected[i].verdict);
    EXPECT_EQ(records[i].value("policy_verdict", ""), expected[i].policy_verdict);
    if (expected[i].rule != "(any)") {
      EXPECT_EQ(records[i].value("rule", ""), expected[i].rule);
    }
    EXPECT_FALSE(records[i].value("reason", "").empty());
    EXPECT_EQ(records[i]["context"].value("mcp_server", ""), "fs");
  }
  EXPECT_EQ(records[3].value("reason", ""), "moving files is not allowed here");
  EXPECT_EQ(records[1]["args"].value("content", ""), "x");
}

TEST_F(McpProxy, AsksAClientThatDeclaresElicitation) {
  const std::string env_file = (workspace() / ".env").string();
  json script = json::parse(R"({"elicitation": [
      {"action": "decline"},
      {"action": "accept", "content": {"decision": "allow once"}}]})");
  ClientRun r =
      throughProxy({callStep("write_file", {{"path", env_file}, {"content", "FIRST=1\n"}}),
                    callStep("write_file", {{"path", env_file}, {"content", "SECOND=1\n"}})},
                   {}, script);
  ASSERT_EQ(r.run.exit_code, 0) << r;
  json declined = r.step(0);
  expectBlocked(declined, "write_file", "declined");
  ASSERT_EQ(declined.value("elicitations", json::array()).size(), 1u) << r;
  std::string question = declined["elicitations"][0].value("message", "");
  EXPECT_NE(question.find("write_file"), std::string::npos) << question;
  EXPECT_NE(question.find("\"fs\""), std::string::npos) << question;
  EXPECT_NE(question.find("sensitive-write"), std::string::npos) << question;
  EXPECT_NE(declined["elicitations"][0]["requestedSchema"].dump().find("allow once"),
            std::string::npos);

  json accepted = r.step(1);
  ASSERT_TRUE(accepted.contains("result")) << r;
  EXPECT_FALSE(accepted["result"].value("isError", false)) << r;
  EXPECT_EQ(slurp(env_file), "SECOND=1\n");
  std::vector<json> received = serverCalls("write_file");
  ASSERT_EQ(received.size(), 1u) << slurp(serverLog().string());
  EXPECT_EQ(received[0]["params"]["arguments"]["content"], "SECOND=1\n");
}

TEST_F(McpProxy, AskServerSendsAsksToTheServicesQueue) {
  // A real toolguard serve with the file store in a home of its own.
  const std::map<std::string, std::string> service_env = {
      {"HOME", (dir.path() / "service-home").string()},
      {"TOOLGUARD_HOME", (dir.path() / "service-home/.toolguard").string()},
      {"TOOLGUARD_CONFIG_DIR", (dir.path() / "service-user").string()},
      {"TOOLGUARD_MANAGED_DIR", (dir.path() / "service-managed").string()}};
  auto token = [&](const std::string& role, const std::string& name) {
    RunResult t =
        runBinary(TOOLGUARD_BINARY,
                  {"serve", "token", "add", "--role", role, "--name", name, "--owner", name}, "",
                  service_env);
    EXPECT_EQ(t.exit_code, 0) << t.err;
    return t.out.substr(0, t.out.find('\n'));
  };
  const std::string agent = token("agent", "mcp-proxy");
  const std::string approver = token("approver", "alice");
  ServeProcess service(TOOLGUARD_BINARY, {}, service_env, (dir.path() / "service.log").string());
  // The approver allows the first ask once and denies the second, with a note.
  std::thread answering([&] {
    httplib::Client c("127.0.0.1", service.port());
    c.set_bearer_token_auth(approver);
    int answered = 0;
    for (int i = 0; i < 600 && answered < 2; ++i) {
      auto r = c.Get("/v1/asks?state=pending");
      json asks = r && r->status == 200 ? json::parse(r->body) : json::array();
      for (const json& ask : asks) {
        const std::string body = answered == 0 ? R"({"answer":"allow_once"})"
                                               : R"({"answer":"deny","note":"not the .env"})";
        if (c.Post("/v1/asks/" + ask["id"].get<std::string>() + "/answer", body,
                   "application/json")) {
          ++answered;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  const std::string env_file = (workspace() / ".env").string();
  json script = {{"extra_env", {{"TOOLGUARD_TOKEN", agent}}}};
  ClientRun r =
      throughProxy({callStep("write_file", {{"path", env_file}, {"content", "FIRST=1\n"}}),
                    callStep("write_file", {{"path", env_file}, {"content", "SECOND=1\n"}})},
                   {"--ask-server", service.url()}, script);
  answering.join();
  ASSERT_EQ(r.run.exit_code, 0) << r;
  EXPECT_FALSE(r.step(0)["result"].value("isError", false)) << r;
  expectBlocked(r.step(1), "write_file", "not the .env");
  EXPECT_EQ(slurp(env_file), "FIRST=1\n");
}

TEST_F(McpProxy, AskNoneDeniesWithoutAskingTheClient) {
  const std::string env_file = (workspace() / ".env").string();
  json script = json::parse(
      R"({"elicitation": [{"action": "accept", "content": {"decision": "allow once"}}]})");
  ClientRun r = throughProxy({callStep("write_file", {{"path", env_file}, {"content", "KEY=1\n"}})},
                             {"--ask", "none"}, script);
  ASSERT_EQ(r.run.exit_code, 0) << r;
  expectBlocked(r.step(0), "write_file", "secrets");
  EXPECT_FALSE(r.step(0).contains("elicitations")) << r;
  EXPECT_FALSE(fs::exists(env_file));
  EXPECT_TRUE(serverCalls("write_file").empty());
}

TEST_F(McpProxy, ExitsCleanlyWhenTheClientCloses) {
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun r = throughProxy({listStep(), callStep("read_text_file", {{"path", notes}})},
                             {"--policy", policyFile()}, {{"reportExit", true}});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  ASSERT_EQ(r.lines.size(), 3u) << r;
  json exit = r.lines[2];
  EXPECT_EQ(exit.value("op", ""), "exit") << r;
  EXPECT_EQ(exit["code"], 0) << r;
  EXPECT_TRUE(exit["signal"].is_null()) << r;
  // The SDK closes the proxy's stdin and sends SIGTERM only after 2 s.
  EXPECT_LT(exit.value("closeMs", 99999), 2000) << r;

  // The server's log is whole: every line complete and JSON.
  std::string log = slurp(serverLog().string());
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back(), '\n');
  std::vector<std::string> methods;
  for (const json& message : serverReceived()) methods.push_back(message.value("method", ""));
  EXPECT_EQ(methods, (std::vector<std::string>{"initialize", "notifications/initialized",
                                               "tools/list", "tools/call"}))
      << log;

  // Neither the proxy nor sh, tee or the server outlive the client.
  const std::string mark = workspace().string();
  std::vector<std::string> left = processesMentioning(mark);
  for (int i = 0; i < 20 && !left.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    left = processesMentioning(mark);
  }
  EXPECT_TRUE(left.empty()) << ::testing::PrintToString(left);
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
