#pragma once
// The fixture of the `toolguard mcp` end-to-end tests: real MCP peers, the
// official TypeScript SDK's stdio client (tests/mcp-peers/client.mjs, one JSON
// line per step) and the reference filesystem server, both pinned in
// tests/mcp-peers. The server runs behind `tee`, so its log holds every line
// that really reached it: a blocked call must never appear there.
//
// The client runs under `setsid`: the proxy then has no controlling terminal,
// /dev/tty cannot be opened, and an "ask" can never prompt the developer's
// terminal (with no client elicitation it is denied, as the contract says).
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "e2e/cli_fixture.hpp"
#include "support/background_server.hpp"
#include "support/serve_process.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

namespace fs = std::filesystem;
using nlohmann::json;

inline const std::string kClient = std::string(MCP_PEERS_DIR) + "/client.mjs";
inline const std::string kServer =
    std::string(MCP_PEERS_DIR) +
    "/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js";
// The tools the filesystem server lists.
inline const std::vector<std::string> kServerTools = {"read_file",
                                                      "read_text_file",
                                                      "read_media_file",
                                                      "read_multiple_files",
                                                      "write_file",
                                                      "edit_file",
                                                      "create_directory",
                                                      "list_directory",
                                                      "list_directory_with_sizes",
                                                      "directory_tree",
                                                      "move_file",
                                                      "search_files",
                                                      "get_file_info",
                                                      "list_allowed_directories"};

inline const char* const kPolicy = R"(version: 1
rules:
  - id: fs-reads
    tool: "mcp__fs__read_*"
    verdict: allow
  - id: no-moves
    tool: mcp__fs__move_file
    verdict: deny
    reason: moving files is not allowed here
  - id: no-forbidden-dirs
    tool: mcp__fs__create_directory
    args:
      path: {glob: "*forbidden*"}
    verdict: abort
    reason: forbidden directories stop the agent
)";

/// Every non-empty line of `text`, parsed; a line that is not JSON fails the test.
inline std::vector<json> jsonLines(const std::string& text, const std::string& what) {
  std::vector<json> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json parsed = json::parse(line, nullptr, false);
    if (parsed.is_discarded()) {
      ADD_FAILURE() << what << " has a line that is not JSON: " << line;
      continue;
    }
    lines.push_back(std::move(parsed));
  }
  return lines;
}

/// The text blocks of a CallToolResult, joined.
inline std::string toolResultText(const json& result) {
  std::string text;
  for (const json& block : result.value("content", json::array())) {
    if (block.value("type", "") == "text") text += block.value("text", "");
  }
  return text;
}

inline bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The processes whose command line mentions `needle` ("PID: command line").
inline std::vector<std::string> processesMentioning(const std::string& needle) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp((entry.path() / "cmdline").string());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(needle) != std::string::npos) found.push_back(pid + ": " + cmdline);
  }
  return found;
}

/// One run of the scripted client: its exit, output and one parsed line per step.
struct ClientRun {
  RunResult run;
  std::vector<json> lines;

  /// The line of step `i`, or null (failing the test) when the client printed fewer.
  json step(size_t i) const {
    if (i >= lines.size()) {
      ADD_FAILURE() << "no output line for step " << i << "; stdout:\n"
                    << run.out << "stderr:\n"
                    << run.err;
      return json();
    }
    return lines[i];
  }
};

inline std::ostream& operator<<(std::ostream& out, const ClientRun& r) {
  return out << "exit " << r.run.exit_code << "\nstdout:\n"
             << r.run.out << "stderr:\n"
             << r.run.err;
}

class McpProxy : public Cli {
 protected:
  McpProxy() {
    dir.write("ws/notes.txt", "the notes of the workspace\n");
    fs::create_directories(dir.path() / "home");
  }

  fs::path workspace() const { return dir.path() / "ws"; }
  fs::path serverLog() const { return dir.path() / "server-received.jsonl"; }
  fs::path auditLog() const { return dir.path() / "audit.jsonl"; }
  std::string policyFile() const { return dir.write("policies/mcp.yaml", kPolicy).string(); }

  /// The environment of the client, and so of the proxy and the server: the
  /// fixture's isolated one.
  std::map<std::string, std::string> clientEnv() const {
    std::map<std::string, std::string> environment = env();
    environment["TOOLGUARD_HOME"] = "";  // an empty value removes it
    return environment;
  }

  /// The command line that runs the proxy in front of the filesystem server
  /// (behind tee, which records what the server receives).
  std::vector<std::string> proxyArgs(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {
        "mcp",         "--name",           "fs", "--workspace", workspace().string(),
        "--audit-log", auditLog().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const char* word : {"--", "sh", "-c", R"(tee "$1" | exec "$2" "$3" "$4")", "sh"}) {
      args.emplace_back(word);
    }
    for (const std::string& word :
         {serverLog().string(), std::string(NODE_BINARY), kServer, workspace().string()}) {
      args.push_back(word);
    }
    return args;
  }

  /// Runs the client on `script` (completed with the environment and cwd).
  ClientRun runClient(json script) const {
    json environment = json::object();
    for (const auto& [name, value] : clientEnv()) {
      environment[name] = value.empty() ? json() : json(value);
    }
    const json extra = script.value("extra_env", json::object());
    for (const auto& [name, value] : extra.items()) environment[name] = value;
    script.erase("extra_env");
    script["env"] = environment;
    if (!script.contains("cwd")) script["cwd"] = dir.path().string();
    if (!script.contains("timeoutMs")) script["timeoutMs"] = 30000;
    std::string path =
        dir.write("scripts/script-" + std::to_string(++scripts_) + ".json", script.dump(2))
            .string();
    ClientRun r;
    r.run = runBinary("/usr/bin/setsid", {"-w", NODE_BINARY, kClient, path}, "", clientEnv(),
                      dir.path().string());
    r.lines = jsonLines(r.run.out, "the client's output");
    return r;
  }

  /// Runs `steps` through `toolguard mcp EXTRA... -- (the server)`.
  ClientRun throughProxy(const std::vector<json>& steps, const std::vector<std::string>& extra = {},
                         json script = json::object()) const {
    script["command"] = TOOLGUARD_BINARY;
    script["args"] = proxyArgs(extra);
    script["steps"] = json(steps);
    return runClient(std::move(script));
  }

  /// The reference "everything" server in its Streamable HTTP mode, on a
  /// free loopback port (its log in everything.log).
  std::unique_ptr<BackgroundServer> everything() const {
    return std::make_unique<BackgroundServer>(
        NODE_BINARY,
        std::vector<std::string>{std::string(MCP_PEERS_DIR) +
                                     "/node_modules/@modelcontextprotocol/server-everything/dist/"
                                     "index.js",
                                 "streamableHttp"},
        env(), freePort(), (dir.path() / "everything.log").string());
  }

  /// The proxy ended as it should when the client left (the script's
  /// "reportExit"): exit code 0, no sanitizer report (a use after free at
  /// shutdown changes no step).
  static void expectCleanExit(const ClientRun& run) {
    ASSERT_FALSE(run.lines.empty()) << run;
    const json& last = run.lines.back();
    EXPECT_EQ(last.value("op", ""), "exit") << run;
    EXPECT_EQ(last.value("code", json()), json(0)) << run;
    EXPECT_EQ(run.run.err.find("AddressSanitizer"), std::string::npos) << run;
    EXPECT_EQ(run.run.err.find("runtime error:"), std::string::npos) << run;
  }

  /// Runs `steps` against the server directly, without the proxy.
  ClientRun direct(const std::vector<json>& steps) const {
    return runClient(
        {{"command", NODE_BINARY}, {"args", {kServer, workspace().string()}}, {"steps", steps}});
  }

  /// Every message the server received.
  std::vector<json> serverReceived() const {
    return jsonLines(slurp(serverLog().string()), "the server's log");
  }

  /// The tools/call requests the server received for `tool`.
  std::vector<json> serverCalls(const std::string& tool) const {
    std::vector<json> calls;
    for (const json& message : serverReceived()) {
      if (message.value("method", "") == "tools/call" &&
          message["params"].value("name", "") == tool) {
        calls.push_back(message);
      }
    }
    return calls;
  }

  /// The decisions in the audit log (not the chain's anchors).
  std::vector<json> auditRecords() const {
    std::vector<json> records = jsonLines(slurp(auditLog().string()), "the audit log");
    std::erase_if(records, [](const json& r) { return r.is_object() && r.contains("anchor"); });
    return records;
  }

  /// Asserts that `line` is a call blocked by toolguard, its text holding `reason`.
  static void expectBlocked(const json& line, const std::string& tool, const std::string& reason) {
    SCOPED_TRACE(line.dump());
    EXPECT_EQ(line.value("op", ""), "call");
    EXPECT_EQ(line.value("name", ""), tool);
    ASSERT_TRUE(line.contains("result")) << "expected a tool result, not a JSON-RPC error";
    const json& result = line["result"];
    EXPECT_EQ(result.value("isError", false), true);
    std::string text = toolResultText(result);
    EXPECT_NE(text.find("toolguard"), std::string::npos) << text;
    EXPECT_NE(text.find(reason), std::string::npos) << text;
  }

 private:
  mutable int scripts_ = 0;
};

/// A small server whose listing and results a test chooses
/// (tests/mcp-peers/changing_server.py).
inline const std::string kChangingServer =
    std::string(TOOLGUARD_SOURCE_DIR) + "/tests/mcp-peers/changing_server.py";

/// A tool entry of a listing, with no arguments.
inline json listedTool(const std::string& name, const std::string& description) {
  return {{"name", name},
          {"description", description},
          {"inputSchema", {{"type", "object"}, {"properties", json::object()}}}};
}

/// The proxy in front of changing_server.py: `toolguard mcp --name NAME
/// OPTIONS... -- changing_server.py`, every mcp__ tool allowed by an
/// explicit policy; the server lists `first`, then `later`, and answers a
/// call of NAME with results[NAME].
class McpChangingServer : public McpProxy {
 protected:
  ClientRun throughChangingServer(const std::string& name, const json& first, const json& later,
                                  const std::vector<json>& steps,
                                  const std::vector<std::string>& options = {"--no-builtin"},
                                  const json& results = json::object()) const {
    const std::string policy =
        dir.write("policies/all.yaml", "rules:\n  - {id: all, tool: \"mcp__*\", verdict: allow}\n")
            .string();
    json args = {"mcp",
                 "--name",
                 name,
                 "--workspace",
                 workspace().string(),
                 "--audit-log",
                 auditLog().string(),
                 "--policy",
                 policy};
    for (const std::string& option : options) args.push_back(option);
    for (const char* word : {"--", "/usr/bin/python3"}) args.push_back(word);
    args.push_back(kChangingServer);
    json script = {{"command", TOOLGUARD_BINARY},
                   {"args", args},
                   {"steps", steps},
                   {"extra_env",
                    {{"FIRST_TOOLS", first.dump()},
                     {"LATER_TOOLS", later.dump()},
                     {"CALL_RESULTS", results.dump()}}}};
    return runClient(std::move(script));
  }

  static std::vector<std::string> listed(const json& line) {
    return line.value("tools", std::vector<std::string>{});
  }
};

inline json callStep(const std::string& tool, json arguments) {
  return {{"op", "call"}, {"name", tool}, {"arguments", std::move(arguments)}};
}

inline json listStep() {
  return {{"op", "list"}};
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
