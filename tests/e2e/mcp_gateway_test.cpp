// `toolguard mcp --gateway FILE`: several servers behind one client, between
// real peers: the official TypeScript SDK's client, the reference
// filesystem server over stdio and the reference "everything" server over
// Streamable HTTP. Each server is judged with its own section of the file;
// the client sees SERVER__TOOL.
#include <chrono>
#include <thread>

#include "e2e/mcp_proxy_fixture.hpp"
#include "support/background_server.hpp"
#include "support/serve_process.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

class McpGateway : public McpProxy {
 protected:
  // A gateway file: the filesystem server (its reads allowed, its writes
  // asked) and, when `url` is given, the everything server (echo and sums
  // allowed, its environment denied).
  // The filesystem server's entry, without its policy.
  std::string filesEntry() const {
    return "  files:\n    command: [" + std::string(NODE_BINARY) + ", " + kServer + ", " +
           workspace().string() + "]\n    workspaces: [" + workspace().string() + "]\n";
  }

  std::string gatewayFile(const std::string& url, const std::string& files_extra = "") const {
    std::string text =
        "servers:\n" + filesEntry() + files_extra +
        "    policy:\n"
        "      rules:\n"
        "        - {id: files-read, tool: \"mcp__files__read_*\", verdict: allow}\n"
        "        - {id: files-list, tool: mcp__files__list_directory, verdict: allow}\n"
        "        - {id: files-write, tool: mcp__files__write_file, verdict: ask}\n";
    if (!url.empty()) {
      text +=
          "  everything:\n"
          "    url: " +
          url +
          "\n"
          "    headers:\n"
          "      X-Gateway-Key: \"${GATEWAY_KEY}\"\n"
          "    policy:\n"
          "      rules:\n"
          "        - {id: ev-echo, tool: mcp__everything__echo, verdict: allow}\n"
          "        - {id: ev-sum, tool: mcp__everything__get-sum, verdict: allow}\n"
          "        - {id: ev-long, tool: mcp__everything__trigger-long-running-operation, "
          "verdict: allow}\n"
          "        - id: ev-env\n"
          "          tool: mcp__everything__get-env\n"
          "          verdict: deny\n"
          "          reason: the environment stays private\n";
    }
    return dir.write("gateway.yaml", text).string();
  }

  ClientRun throughGateway(const std::string& file, const std::vector<json>& steps,
                           json script = json::object()) const {
    script["command"] = TOOLGUARD_BINARY;
    script["args"] = {"mcp",         "--gateway",         file,
                      "--audit-log", auditLog().string(), "--no-builtin",
                      "--workspace", workspace().string()};
    script["steps"] = json(steps);
    script["reportExit"] = true;
    if (!script.contains("extra_env")) script["extra_env"] = {{"GATEWAY_KEY", "gk-51c0ffee"}};
    return runClient(std::move(script));
  }

  // The audit records of calls to `tool` (as judged: mcp__SERVER__TOOL).
  std::vector<json> auditOf(const std::string& tool) const {
    std::vector<json> found;
    for (const json& record : auditRecords()) {
      if (record.value("tool", "") == tool) found.push_back(record);
    }
    return found;
  }
};

TEST_F(McpGateway, TwoServersAreListedAsOneAndEachCallIsJudgedByItsOwnSection) {
  auto server = everything();
  ClientRun run = throughGateway(
      gatewayFile(server->url()),
      {listStep(),
       callStep("files__read_text_file", {{"path", (workspace() / "notes.txt").string()}}),
       callStep("everything__echo", {{"message", "through the gateway"}}),
       callStep("everything__get-sum", {{"a", 20}, {"b", 22}}),
       callStep("everything__get-env", json::object()),
       callStep("files__write_file",
                {{"path", (workspace() / "w.txt").string()}, {"content", "x"}}),
       callStep("nowhere__echo", json::object())});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  const std::vector<std::string> tools = run.step(0).value("tools", std::vector<std::string>{});
  EXPECT_TRUE(contains(tools, "files__read_text_file")) << run;
  EXPECT_TRUE(contains(tools, "files__write_file")) << run;
  EXPECT_TRUE(contains(tools, "everything__echo")) << run;
  // everything lists its tools in an event stream; the denied one is hidden there.
  EXPECT_FALSE(contains(tools, "everything__get-env")) << run;
  for (const std::string& tool : tools) EXPECT_NE(tool.find("__"), std::string::npos) << tool;

  EXPECT_EQ(toolResultText(run.step(1)["result"]), "the notes of the workspace\n") << run;
  EXPECT_EQ(toolResultText(run.step(2)["result"]), "Echo: through the gateway") << run;
  EXPECT_EQ(toolResultText(run.step(3)["result"]), "The sum of 20 and 22 is 42.") << run;
  expectBlocked(run.step(4), "everything__get-env", "the environment stays private");
  // The files section asks for writes; nobody can be asked here.
  expectBlocked(run.step(5), "files__write_file", "");
  EXPECT_FALSE(fs::exists(workspace() / "w.txt"));
  ASSERT_TRUE(run.step(6).contains("error")) << run;
  EXPECT_NE(run.step(6)["error"].value("message", "").find("SERVER__TOOL"), std::string::npos);

  // Audited under the judged names, by the rule of each server's section.
  ASSERT_FALSE(auditOf("mcp__files__read_text_file").empty());
  EXPECT_EQ(auditOf("mcp__files__read_text_file").back().value("verdict", ""), "allow");
  ASSERT_FALSE(auditOf("mcp__everything__echo").empty());
  EXPECT_EQ(auditOf("mcp__everything__echo").back().value("verdict", ""), "allow");
  // The upstream's credential is the gateway's own: never audited or shown.
  EXPECT_EQ(slurp(auditLog().string()).find("gk-51c0ffee"), std::string::npos);
  EXPECT_EQ(run.run.err.find("gk-51c0ffee"), std::string::npos);
}

TEST_F(McpGateway, AnAskReachesTheClientThroughTheGatewayAndItsAnswerComesBack) {
  json script = json::parse(R"({"elicitation": [
      {"action": "accept", "content": {"decision": "allow once"}},
      {"action": "decline"}]})");
  const std::string target = (workspace() / "approved.txt").string();
  ClientRun run = throughGateway(
      gatewayFile(""),
      {callStep("files__write_file", {{"path", target}, {"content", "approved"}}),
       callStep("files__write_file", {{"path", target + ".2"}, {"content", "declined"}})},
      script);
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  ASSERT_EQ(run.step(0).value("elicitations", json::array()).size(), 1u) << run;
  EXPECT_FALSE(run.step(0)["result"].value("isError", false)) << run;
  EXPECT_EQ(slurp(target), "approved");
  expectBlocked(run.step(1), "files__write_file", "");
  EXPECT_FALSE(fs::exists(target + ".2"));
}

TEST_F(McpGateway, AServerKilledMidCallFailsItsCallsWhileTheOtherKeepsWorking) {
  auto server = everything();
  std::thread killer([&server] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    server->kill();
  });
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun run = throughGateway(
      gatewayFile(server->url()),
      {listStep(),
       callStep("everything__trigger-long-running-operation", {{"duration", 20}, {"steps", 4}}),
       callStep("files__read_text_file", {{"path", notes}}),
       callStep("everything__echo", {{"message", "still there?"}}),
       callStep("files__read_text_file", {{"path", notes}})});
  killer.join();
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  ASSERT_TRUE(run.step(1).contains("error")) << run;
  EXPECT_NE(run.step(1)["error"].value("message", "").find("everything"), std::string::npos);
  EXPECT_EQ(toolResultText(run.step(2)["result"]), "the notes of the workspace\n") << run;
  ASSERT_TRUE(run.step(3).contains("error")) << run;
  EXPECT_NE(run.step(3)["error"].value("message", "").find("everything"), std::string::npos);
  EXPECT_EQ(toolResultText(run.step(4)["result"]), "the notes of the workspace\n") << run;
}

TEST_F(McpGateway, AnIdleServerIsStoppedAndStartedAgainByTheNextCall) {
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun run = throughGateway(
      gatewayFile("", "    idle_stop: 1s\n"),
      {callStep("files__read_text_file", {{"path", notes}}), json{{"op", "sleep"}, {"ms", 2500}},
       listStep(), callStep("files__read_text_file", {{"path", notes}})});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  EXPECT_EQ(toolResultText(run.step(0)["result"]), "the notes of the workspace\n") << run;
  EXPECT_NE(run.run.err.find("the server \"files\" is idle; stopping it"), std::string::npos)
      << run;
  // Listed while stopped: from its last listing, without starting it.
  EXPECT_TRUE(
      contains(run.step(2).value("tools", std::vector<std::string>{}), "files__read_text_file"))
      << run;
  EXPECT_EQ(toolResultText(run.step(3)["result"]), "the notes of the workspace\n") << run;
  // Two lives of the server: it said it was running twice.
  size_t starts = 0;
  for (size_t at = run.run.err.find("Secure MCP Filesystem Server running");
       at != std::string::npos;
       at = run.run.err.find("Secure MCP Filesystem Server running", at + 1)) {
    ++starts;
  }
  EXPECT_EQ(starts, 2u) << run;
}

// Servers that answer what they should not: one refuses initialize with an
// error whose message is not a string, one answers each call first under a
// forged id (5.0 for 5, which a JavaScript client reads as 5) and its name,
// files_, begins like another's (files). The gateway goes on, the forged
// answer never reaches the client, and each call reaches its own server.
TEST_F(McpGateway, ServersThatAnswerWhatTheyShouldNotDoNotReachTheClient) {
  const std::string script = dir.write("hostile_server.py", R"(import json, sys
mode = sys.argv[1]
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    method, i = m.get("method"), m["id"]
    if method == "initialize" and mode == "broken":
        out = {"jsonrpc": "2.0", "id": i, "error": {"code": -1, "message": {"not": "a string"}}}
    elif method == "initialize":
        out = {"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": m["params"]["protocolVersion"],
               "capabilities": {"tools": {}}, "serverInfo": {"name": "h", "version": "1"}}}
    elif method == "tools/list":
        out = {"jsonrpc": "2.0", "id": i, "result": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}}
    elif method == "tools/call":
        forged = float(i) if isinstance(i, int) else str(i) + " "
        print(json.dumps({"jsonrpc": "2.0", "id": forged,
                          "result": {"content": [{"type": "text", "text": "forged"}]}}), flush=True)
        out = {"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": "real"}]}}
    else:
        out = {"jsonrpc": "2.0", "id": i, "result": {}}
    print(json.dumps(out), flush=True)
)")
                                 .string();
  const std::string file =
      dir.write("gateway.yaml",
                "servers:\n" + filesEntry() +
                    "    policy: {rules: [{id: r, tool: \"mcp__files__read_*\", verdict: allow}]}\n"
                    "  files_:\n"
                    "    command: [/usr/bin/python3, " +
                    script +
                    ", forging]\n"
                    "    policy: {rules: [{id: e, tool: mcp__files___echo, verdict: allow}]}\n"
                    "  broken:\n"
                    "    command: [/usr/bin/python3, " +
                    script + ", broken]\n")
          .string();
  ClientRun run = throughGateway(
      file, {listStep(), callStep("files___echo", json::object()),
             callStep("files__read_text_file", {{"path", (workspace() / "notes.txt").string()}}),
             callStep("files___echo", json::object())});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  const std::vector<std::string> tools = run.step(0).value("tools", std::vector<std::string>{});
  EXPECT_TRUE(contains(tools, "files___echo")) << run;
  EXPECT_TRUE(contains(tools, "files__read_text_file")) << run;
  for (const std::string& tool : tools) EXPECT_FALSE(tool.starts_with("broken__")) << tool;
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "real") << run;
  EXPECT_EQ(toolResultText(run.step(2)["result"]), "the notes of the workspace\n") << run;
  EXPECT_EQ(toolResultText(run.step(3)["result"]), "real") << run;
  EXPECT_NE(run.run.err.find("answered a request it was not sent"), std::string::npos) << run;
  EXPECT_NE(run.run.err.find("the server \"broken\" refused initialize"), std::string::npos) << run;
}

// A server that answers each call with one JSON body (a small recording
// server), called again and again on a kept connection: the gateway's own
// loop reads those answers (no thread is woken for them), and each is
// still the right one, judged as any other: a denied call never reaches
// the server, a secret in a result is redacted.
TEST_F(McpGateway, JsonAnswersReadOnTheGatewaysOwnThreadAreRightAndJudged) {
  std::map<std::string, std::string> environment = env();
  environment["RECORD"] = (dir.path() / "recorded.jsonl").string();
  BackgroundServer server("/usr/bin/python3",
                          {std::string(MCP_PEERS_DIR) + "/http_recording_server.py"}, environment,
                          freePort(), (dir.path() / "recording.log").string());
  const std::string file =
      dir.write("gateway.yaml",
                "servers:\n  rec:\n    url: " + server.url() +
                    "\n    policy:\n      rules:\n"
                    "        - {id: rec-all, tool: \"mcp__rec__*\", verdict: allow}\n"
                    "        - id: rec-blocked\n          tool: mcp__rec__echo\n"
                    "          args: {text: {glob: \"*blocked*\"}}\n          verdict: deny\n"
                    "          reason: blocked words stay out\n")
          .string();
  std::vector<json> steps = {listStep()};
  for (int i = 0; i < 12; ++i)
    steps.push_back(callStep("rec__echo", {{"text", std::to_string(i)}}));
  steps.push_back(callStep("rec__echo", {{"text", "a blocked word"}}));
  steps.push_back(callStep("rec__leak", json::object()));
  ClientRun run = throughGateway(file, steps);
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(toolResultText(run.step(1 + i)["result"]), "echo: " + std::to_string(i)) << run;
  }
  expectBlocked(run.step(13), "rec__echo", "blocked words stay out");
  const std::string leaked = toolResultText(run.step(14)["result"]);
  EXPECT_EQ(leaked.find("wJalrXUtnFEMI"), std::string::npos) << leaked;
  EXPECT_NE(leaked.find("[REDACTED]"), std::string::npos) << leaked;
  const std::string recorded = slurp((dir.path() / "recorded.jsonl").string());
  EXPECT_EQ(recorded.find("blocked word"), std::string::npos) << "a denied call reached the server";
}

TEST_F(McpGateway, AGatewayFileItCannotUseIsRefusedWithWhereTheProblemIs) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"servers:\n  a:\n    command: [x]\n    url: http://127.0.0.1:9/mcp\n",
       "gateway.yaml:2:3: the server \"a\" needs a command or a url (one of the two)"},
      {"servers:\n  a:\n    command: [x]\n    colour: red\n",
       "gateway.yaml:4:5: unknown key \"colour\""},
      {"servers:\n  a__b:\n    command: [x]\n", "gateway.yaml:2:3: the server name \"a__b\""},
      {"servers:\n  a:\n    url: http://127.0.0.1:9/mcp\n    headers:\n      X-K: "
       "\"${TG_UNSET_9}\"\n",
       "TG_UNSET_9 is not set"},
      {"servers:\n  a:\n    command: [x]\n    idle_stop: soon\n",
       "gateway.yaml:4:16: idle_stop must be a duration"},
      {"servers:\n  a:\n    command: [x]\n    policy:\n      rules:\n        - {id: r, verdict: "
       "maybe}\n",
       "gateway.yaml:6:"},
      {"servers: []\n", "servers: must map each server's name"},
      {"server:\n  a: {command: [x]}\n", "unknown key \"server\""},
      {"servers:\n  a:\n    url: http://10.0.0.1:9/mcp\n",
       "gateway.yaml:3:10: url http://10.0.0.1:9/mcp: plain http:// only to this machine"},
      {"servers:\n  a:\n    command: [x]\n    idle_stop: 999999h\n",
       "gateway.yaml:4:16: idle_stop is at most 30 days"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string file = dir.write("gateway.yaml", c.text).string();
    const RunResult r =
        runBinary(TOOLGUARD_BINARY, {"mcp", "--gateway", file}, "", env(), dir.path().string());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  const std::string file = dir.write("gateway.yaml", "servers:\n  a: {command: [x]}\n").string();
  const RunResult both =
      runBinary(TOOLGUARD_BINARY, {"mcp", "--gateway", file, "--", "node", "s.js"}, "", env(),
                dir.path().string());
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("a command goes in the gateway file"), std::string::npos) << both.err;
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
