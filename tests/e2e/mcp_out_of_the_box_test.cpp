// `toolguard mcp` as a new user meets it, between the real MCP peers: a tool
// the server never listed, no one to ask, the README's policy that trusts a
// server's reads, and Claude Code's hook installed beside the proxy.
#include "e2e/mcp_proxy_fixture.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

/// The README's ```yaml block that holds `marker`.
std::string readmeYamlBlockWith(const std::string& marker) {
  const std::string readme = slurp(std::string(TOOLGUARD_SOURCE_DIR) + "/README.md");
  size_t start = 0;
  while ((start = readme.find("```yaml\n", start)) != std::string::npos) {
    start += 8;
    const size_t end = readme.find("```", start);
    if (end == std::string::npos) break;
    std::string block = readme.substr(start, end - start);
    if (block.find(marker) != std::string::npos) return block;
    start = end + 3;
  }
  ADD_FAILURE() << "no ```yaml block in README.md holds " << marker;
  return "";
}

TEST_F(McpProxy, ACallOfAToolTheServerNeverListedSaysSoAndIsNotSent) {
  // Once after the client listed the tools, once as the first message (the
  // proxy lists them itself first): the same answer.
  for (bool list_first : {true, false}) {
    SCOPED_TRACE(list_first ? "after a list" : "before any list");
    fs::remove(serverLog());
    std::vector<json> steps;
    if (list_first) steps.push_back(listStep());
    steps.push_back(callStep("delete_everything", {{"path", workspace().string()}}));
    steps.push_back(callStep("read_text_file", {{"path", (workspace() / "notes.txt").string()}}));
    ClientRun r = throughProxy(steps, {"--policy", policyFile()});
    ASSERT_EQ(r.run.exit_code, 0) << r;
    const json unlisted = r.step(list_first ? 1 : 0);
    expectBlocked(unlisted, "delete_everything",
                  "the MCP server \"fs\" has no tool named \"delete_everything\"");
    const std::string text = toolResultText(unlisted["result"]);
    // It names the tools the client may call, not those the policy hides.
    EXPECT_NE(text.find("read_text_file"), std::string::npos) << text;
    EXPECT_EQ(text.find("move_file"), std::string::npos) << text;
    EXPECT_TRUE(serverCalls("delete_everything").empty()) << slurp(serverLog().string());
    // The session goes on.
    EXPECT_EQ(toolResultText(r.step(list_first ? 2 : 1).value("result", json::object())),
              "the notes of the workspace\n")
        << r;
    EXPECT_NE(r.run.err.find("never listed"), std::string::npos) << r.run.err;
  }
  // Each refusal is in the audit log, as a malformed call of the server.
  size_t refusals = 0;
  for (const json& record : auditRecords()) {
    if (record.value("error", "").find("has no tool named \"delete_everything\"") !=
        std::string::npos) {
      ++refusals;
      EXPECT_EQ(record.value("verdict", ""), "deny");
      EXPECT_EQ(record["context"].value("mcp_server", ""), "fs");
    }
  }
  EXPECT_EQ(refusals, 2u) << slurp(auditLog().string());
}

// The client has no elicitation and the proxy no terminal (setsid): the model
// reads that no one could be asked, never the device's error.
TEST_F(McpProxy, TheModelNeverReadsTheTerminalsDeviceError) {
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun r = throughProxy({callStep("read_text_file", {{"path", notes}})});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  expectBlocked(r.step(0), "read_text_file", "no terminal to ask on");
  const std::string text = toolResultText(r.step(0)["result"]);
  EXPECT_EQ(text.find("/dev/tty"), std::string::npos) << text;
  EXPECT_EQ(text.find("No such device"), std::string::npos) << text;
  EXPECT_EQ(text.find("errno"), std::string::npos) << text;
  // The person keeps the detail, in the audit log.
  std::vector<json> records = auditRecords();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_NE(records[0].dump().find("/dev/tty"), std::string::npos) << records[0].dump();
  EXPECT_TRUE(serverCalls("read_text_file").empty());
}

// The README's policy, as a user file: the server's reads in the workspace
// run, a secret and a place outside still ask, a write still asks.
TEST_F(McpProxy, TheReadmesPolicyTrustsTheServersReads) {
  dir.write("user/mcp-fs.yaml", readmeYamlBlockWith("id: fs-reads"));
  dir.write("ws/.env", "KEY=1\n");
  dir.write("outside/diary.txt", "private\n");
  const std::string notes = (workspace() / "notes.txt").string();
  ClientRun r = throughProxy(
      {listStep(), callStep("read_text_file", {{"path", notes}}),
       callStep("list_directory", {{"path", workspace().string()}}),
       callStep("search_files", {{"path", workspace().string()}, {"pattern", "notes"}}),
       callStep("read_text_file", {{"path", (workspace() / ".env").string()}}),
       callStep("read_text_file", {{"path", (dir.path() / "outside/diary.txt").string()}}),
       callStep("read_text_file", {{"path", "/etc/passwd"}}),
       callStep("write_file", {{"path", (workspace() / "new.txt").string()}, {"content", "x"}})});
  ASSERT_EQ(r.run.exit_code, 0) << r;
  EXPECT_EQ(toolResultText(r.step(1).value("result", json::object())),
            "the notes of the workspace\n")
      << r;
  for (size_t step : {2, 3}) {  // ran, and answered by the server
    const json result = r.step(step).value("result", json::object());
    EXPECT_FALSE(result.value("isError", false)) << r;
    EXPECT_EQ(toolResultText(result).find("toolguard"), std::string::npos) << r;
  }
  EXPECT_NE(toolResultText(r.step(2).value("result", json::object())).find("notes.txt"),
            std::string::npos)
      << r;
  expectBlocked(r.step(4), "read_text_file", ".env");
  expectBlocked(r.step(5), "read_text_file", "outside the workspace");
  expectBlocked(r.step(6), "read_text_file", "outside the workspace");
  expectBlocked(r.step(7), "write_file", "toolguard");
  EXPECT_EQ(serverCalls("read_text_file").size(), 1u) << slurp(serverLog().string());
  EXPECT_TRUE(serverCalls("write_file").empty());
  EXPECT_FALSE(fs::exists(workspace() / "new.txt"));
}

// Claude Code's hook and the proxy both installed: the hook leaves a call of a
// server Claude Code starts through `toolguard mcp` to the proxy, which asks
// once (here by elicitation, as Claude Code shows it); a server started
// without the proxy, or named only in a project's .mcp.json, is still asked by
// the hook, and a deny is still given by the hook.
TEST_F(McpProxy, WithClaudeCodesHookTooACallIsAskedOnceByTheProxy) {
  const std::string ws = workspace().string();
  const json proxied = {{"command", TOOLGUARD_BINARY},
                        {"args",
                         {"mcp", "--name", "fs", "--workspace", ws, "--", "npx", "-y",
                          "@modelcontextprotocol/server-filesystem", ws}}};
  const json direct_server = {{"command", "npx"},
                              {"args", {"-y", "@modelcontextprotocol/server-filesystem", ws}}};
  const json local = {{"my.files", proxied}, {"raw", direct_server}, {"shadowed", proxied}};
  dir.write(
      "home/.claude.json",
      json{{"mcpServers", {{"fs", proxied}}}, {"projects", {{ws, {{"mcpServers", local}}}}}}.dump(
          2));
  dir.write("ws/sub/main.c", "int main(void) { return 0; }\n");
  // A cloned repository's servers, one of them named like the user's.
  dir.write("ws/.mcp.json",
            json{{"mcpServers", {{"repo", proxied}, {"shadowed", direct_server}}}}.dump(2));
  const std::string env_file = (workspace() / ".env").string();
  const json write_env = {{"path", env_file}, {"content", "KEY=1\n"}};
  // The hook as `toolguard install claude` writes it, in both modes: a
  // tighten hook too answers an explicit allow for the proxy's calls (with
  // no opinion, Claude Code would ask before the proxy asks again).
  for (const char* mode : {"tighten", "decide"}) {
    SCOPED_TRACE(mode);
    RunResult installed = run({"install", "claude", "--mode", mode}, "", ws);
    ASSERT_EQ(installed.exit_code, 0) << installed.err;
    const std::string command =
        json::parse(slurp((dir.path() / "home/.claude/settings.json")
                              .string()))["hooks"]["PreToolUse"][0]["hooks"][0]["command"];
    ASSERT_NE(command.find(std::string("--mode ") + mode), std::string::npos) << command;
    auto hook = [&](const std::string& tool, const json& input, json server = nullptr) {
      json hook_input = {{"session_id", "s1"},
                         {"transcript_path", dir.path().string() + "/t.jsonl"},
                         {"cwd", ws + "/sub"},
                         {"permission_mode", "default"},
                         {"hook_event_name", "PreToolUse"},
                         {"tool_name", tool},
                         {"tool_input", input},
                         {"tool_use_id", "toolu_01"}};
      if (!server.is_null()) hook_input["mcp_server"] = server;  // Claude Code 2.1.274 and later
      RunResult r = runBinary("/bin/sh", {"-c", command}, hook_input.dump(), env(), ws + "/sub");
      EXPECT_EQ(r.exit_code, 0) << r.err;
      const json answer = json::parse(r.out, nullptr, false);
      return answer.is_object() ? answer.value("hookSpecificOutput", json::object()) : json();
    };
    json left = hook("mcp__fs__write_file", write_env);
    EXPECT_EQ(left["permissionDecision"], "allow") << left;
    EXPECT_NE(left["permissionDecisionReason"].get<std::string>().find("toolguard mcp"),
              std::string::npos)
        << left;
    // Local scope, found from a directory below the project; Claude Code's
    // name for "my.files" in tool names is my_files.
    EXPECT_EQ(hook("mcp__my_files__write_file", write_env)["permissionDecision"], "allow");
    EXPECT_EQ(hook("mcp__raw__write_file", write_env)["permissionDecision"], "ask");
    EXPECT_EQ(hook("mcp__repo__write_file", write_env)["permissionDecision"], "ask");
    EXPECT_EQ(hook("mcp__shadowed__write_file", write_env)["permissionDecision"], "ask");
    // Where Claude Code names the server and its source, only the user's own scopes count.
    EXPECT_EQ(hook("mcp__fs__write_file", write_env,
                   {{"name", "fs"}, {"source", "user"}})["permissionDecision"],
              "allow");
    EXPECT_EQ(hook("mcp__fs__write_file", write_env,
                   {{"name", "fs"}, {"source", "project"}})["permissionDecision"],
              "ask");
    EXPECT_EQ(hook("mcp__fs__write_file", write_env,
                   {{"name", "other"}, {"source", "user"}})["permissionDecision"],
              "ask");
    EXPECT_EQ(hook("mcp__fs__write_file",
                   {{"path", "/etc/passwd"}, {"content", "x"}})["permissionDecision"],
              "deny");
  }

  // The proxy then asks, once, and the person's answer decides.
  json script = json::parse(
      R"({"elicitation": [{"action": "accept", "content": {"decision": "allow once"}}]})");
  ClientRun r = throughProxy({callStep("write_file", write_env)}, {}, script);
  ASSERT_EQ(r.run.exit_code, 0) << r;
  EXPECT_EQ(r.step(0).value("elicitations", json::array()).size(), 1u) << r;
  EXPECT_FALSE(r.step(0).value("result", json::object()).value("isError", false)) << r;
  EXPECT_EQ(slurp(env_file), "KEY=1\n");
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
