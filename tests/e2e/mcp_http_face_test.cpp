// `toolguard mcp --listen`: the guarded tools served over MCP's Streamable
// HTTP transport, between real peers: the official TypeScript SDK's HTTP
// client, the reference filesystem server over stdio and the reference
// "everything" server over HTTP behind one gateway; callers show agent
// tokens made by `toolguard serve token add`. And what an attacker sends
// it: no token, other origins and hosts, huge bodies, batches, a flood of
// connections and streams.
#include <httplib.h>

#include <chrono>
#include <thread>

#include "e2e/mcp_proxy_fixture.hpp"
#include "support/background_server.hpp"
#include "support/loopback_connect.hpp"
#include "support/serve_process.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

class McpHttpFace : public McpProxy {
 protected:
  // A refused body is answered before it is read: writing the rest is a
  // broken pipe for the client, not the end of the test.
  McpHttpFace() { signal(SIGPIPE, SIG_IGN); }

  // The environment of the face and of `serve token add`: one home.
  std::map<std::string, std::string> faceEnv() const {
    std::map<std::string, std::string> e = env();
    e["TOOLGUARD_HOME"] = (dir.path() / "home").string();
    return e;
  }

  std::string token(const std::string& role, const std::string& name) const {
    RunResult t = runBinary(
        TOOLGUARD_BINARY,
        {"serve", "token", "add", "--role", role, "--name", name, "--owner", name}, "", faceEnv());
    EXPECT_EQ(t.exit_code, 0) << t.err;
    return t.out.substr(0, t.out.find('\n'));
  }

  std::string gatewayFile(const std::string& everything_url) const {
    std::string text = "servers:\n  files:\n    command: [" + std::string(NODE_BINARY) + ", " +
                       kServer + ", " + workspace().string() + "]\n    workspaces: [" +
                       workspace().string() +
                       "]\n"
                       "    policy:\n      rules:\n"
                       "        - {id: files-read, tool: \"mcp__files__read_*\", verdict: allow}\n"
                       "        - {id: files-write, tool: mcp__files__write_file, verdict: ask}\n";
    if (!everything_url.empty()) {
      text += "  everything:\n    url: " + everything_url +
              "\n    policy:\n      rules:\n"
              "        - {id: ev-echo, tool: mcp__everything__echo, verdict: allow}\n"
              "        - {id: ev-env, tool: mcp__everything__get-env, verdict: deny}\n";
    }
    return dir.write("gateway.yaml", text).string();
  }

  std::unique_ptr<ServeProcess> face(const std::vector<std::string>& args) const {
    std::vector<std::string> all = {"--no-builtin", "--audit-log", auditLog().string()};
    all.insert(all.end(), args.begin(), args.end());
    return std::make_unique<ServeProcess>(TOOLGUARD_BINARY, all, faceEnv(),
                                          (dir.path() / "face.log").string(), "mcp");
  }

  // Stops the face as an operator does (SIGTERM): its log holds no
  // sanitizer report, from serving or from stopping.
  void expectCleanStop(std::unique_ptr<ServeProcess>& served) const {
    served->stop(SIGTERM);
    const std::string log = slurp((dir.path() / "face.log").string());
    EXPECT_EQ(log.find("AddressSanitizer"), std::string::npos) << log;
    EXPECT_EQ(log.find("runtime error:"), std::string::npos) << log;
    EXPECT_EQ(log.find("LeakSanitizer"), std::string::npos) << log;
  }

  // The SDK's Streamable HTTP client against the face.
  ClientRun overHttp(const ServeProcess& face, const std::string& bearer,
                     const std::vector<json>& steps, json script = json::object()) const {
    script["url"] = face.url() + "/mcp";
    script["headers"] = {{"Authorization", "Bearer " + bearer}};
    script["steps"] = json(steps);
    return runClient(std::move(script));
  }

  static httplib::Headers mcpHeaders(const std::string& bearer, const std::string& session = "") {
    httplib::Headers h = {{"Accept", "application/json, text/event-stream"}};
    if (!bearer.empty()) h.emplace("Authorization", "Bearer " + bearer);
    if (!session.empty()) h.emplace("Mcp-Session-Id", session);
    return h;
  }

  static std::string initializeBody() {
    return json{{"jsonrpc", "2.0"},
                {"id", 1},
                {"method", "initialize"},
                {"params",
                 {{"protocolVersion", "2025-06-18"},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "raw"}, {"version", "1"}}}}}}
        .dump();
  }

  // Opens a session with a raw POST; its id.
  static std::string openSession(const ServeProcess& face, const std::string& bearer) {
    httplib::Client c("127.0.0.1", face.port());
    auto r = c.Post("/mcp", mcpHeaders(bearer), initializeBody(), "application/json");
    if (!r || r->status != 200) return "";
    return r->get_header_value("Mcp-Session-Id");
  }
};

TEST_F(McpHttpFace, TheSdksHttpClientReachesTwoServersThroughOneGuardedEndpoint) {
  auto server = everything();
  const std::string agent = token("agent", "coder");
  auto served = face({"--gateway", gatewayFile(server->url())});
  const std::string target = (workspace() / "approved.txt").string();
  json script = json::parse(R"({"elicitation": [
      {"action": "accept", "content": {"decision": "allow once"}}]})");
  ClientRun run =
      overHttp(*served, agent,
               {listStep(),
                callStep("files__read_text_file", {{"path", (workspace() / "notes.txt").string()}}),
                callStep("everything__echo", {{"message", "over http twice"}}),
                callStep("everything__get-env", json::object()),
                callStep("files__write_file", {{"path", target}, {"content", "approved"}})},
               script);
  ASSERT_EQ(run.run.exit_code, 0) << run;
  const std::vector<std::string> tools = run.step(0).value("tools", std::vector<std::string>{});
  EXPECT_TRUE(contains(tools, "files__read_text_file")) << run;
  EXPECT_TRUE(contains(tools, "everything__echo")) << run;
  EXPECT_FALSE(contains(tools, "everything__get-env")) << run;
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "the notes of the workspace\n") << run;
  EXPECT_EQ(toolResultText(run.step(2)["result"]), "Echo: over http twice") << run;
  expectBlocked(run.step(3), "everything__get-env", "");
  // The ask went to the client by elicitation, over HTTP, and came back.
  ASSERT_EQ(run.step(4).value("elicitations", json::array()).size(), 1u) << run;
  EXPECT_FALSE(run.step(4)["result"].value("isError", false)) << run;
  EXPECT_EQ(slurp(target), "approved");
  // Audited with the token's name as the agent.
  bool echo_audited = false;
  for (const json& record : auditRecords()) {
    if (record.value("tool", "") == "mcp__everything__echo") {
      echo_audited = record.value("verdict", "") == "allow";
    }
  }
  EXPECT_TRUE(echo_audited);
  expectCleanStop(served);
}

TEST_F(McpHttpFace, OneServerIsServedAsItIsUnderItsOwnToolNames) {
  const std::string agent = token("agent", "coder");
  auto served = face({"--name", "fs", "--workspace", workspace().string(), "--policy",
                      dir.write("policies/fs.yaml",
                                "rules:\n  - {id: r, tool: \"mcp__fs__read_*\", verdict: allow}\n")
                          .string(),
                      "--", NODE_BINARY, kServer, workspace().string()});
  ClientRun run = overHttp(
      *served, agent,
      {listStep(), callStep("read_text_file", {{"path", (workspace() / "notes.txt").string()}}),
       callStep("read_text_file", {{"path", "/etc/hostname"}})});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  EXPECT_TRUE(contains(run.step(0).value("tools", std::vector<std::string>{}), "read_text_file"))
      << run;
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "the notes of the workspace\n") << run;
  expectBlocked(run.step(2), "read_text_file", "");
  expectCleanStop(served);
}

TEST_F(McpHttpFace, RequestsItMustNotServeAreRefusedAndItKeepsServing) {
  const std::string agent = token("agent", "coder");
  const std::string other = token("agent", "other");
  const std::string approver = token("approver", "alice");
  auto served = face({"--gateway", gatewayFile(""), "--max-body", "65536"});
  httplib::Client c("127.0.0.1", served->port());
  const std::string init = initializeBody();
  struct Case {
    std::string what;
    httplib::Headers headers;
    std::string body;
    int status;
  };
  httplib::Headers wrong_origin = mcpHeaders(agent);
  wrong_origin.emplace("Origin", "http://evil.example");
  httplib::Headers wrong_host = mcpHeaders(agent);
  wrong_host.emplace("Host", "evil.example:" + std::to_string(served->port()));
  httplib::Headers no_stream = {{"Accept", "application/json"},
                                {"Authorization", "Bearer " + agent}};
  const std::vector<Case> cases = {
      {"no token", mcpHeaders(""), init, 401},
      {"a made-up token", mcpHeaders("tg_made_up_token_000000000000"), init, 401},
      {"an approver's token", mcpHeaders(approver), init, 403},
      {"another site's page", wrong_origin, init, 403},
      {"a rebound host name", wrong_host, init, 403},
      {"no event streams accepted", no_stream, init, 406},
      {"not JSON", mcpHeaders(agent), "{\"jsonrpc\": ", 400},
      {"a batch", mcpHeaders(agent), "[" + init + "," + init + "]", 400},
      {"a key twice", mcpHeaders(agent), R"({"jsonrpc":"2.0","id":1,"id":2,"method":"ping"})", 400},
      {"no session", mcpHeaders(agent), R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", 400},
      {"a made-up session", mcpHeaders(agent, "0123456789abcdef0123456789abcdef"),
       R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", 404},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    auto r = c.Post("/mcp", k.headers, k.body, "application/json");
    ASSERT_TRUE(r) << httplib::to_string(r.error());
    EXPECT_EQ(r->status, k.status) << r->body;
  }
  // A huge body is refused by its declared length, before it is read.
  const int fd = connectFrom("127.0.0.1", served->port());
  ASSERT_GE(fd, 0);
  const std::string huge =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(served->port()) +
      "\r\nAuthorization: Bearer " + agent +
      "\r\nAccept: application/json, text/event-stream\r\n"
      "Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n";
  ASSERT_EQ(::send(fd, huge.data(), huge.size(), MSG_NOSIGNAL), static_cast<ssize_t>(huge.size()));
  char head[64] = {};
  pollfd p{fd, POLLIN, 0};
  ASSERT_GT(::poll(&p, 1, 5000), 0);
  ASSERT_GT(::recv(fd, head, sizeof head - 1, 0), 0);
  EXPECT_EQ(std::string(head).substr(0, 12), "HTTP/1.1 413") << head;
  ::close(fd);
  // Without a bearer token the head settles it: 401 before the body is read.
  const std::string start_line =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(served->port()) +
      "\r\nAccept: application/json, text/event-stream\r\n"
      "Content-Type: application/json\r\nContent-Length: 60000\r\n";
  for (const std::string& credentials :
       {std::string(""), std::string("Authorization: Basic Y29kZXI6eA==\r\n")}) {
    const std::string answer =
        answerToHeadAlone(served->port(), start_line + credentials + "\r\n", 5000);
    EXPECT_EQ(answer.rfind("HTTP/1.1 401", 0), 0u) << credentials << answer;
  }
  EXPECT_EQ(answerToHeadAlone(served->port(),
                              start_line + "Authorization: Bearer " + agent + "\r\n\r\n", 700),
            "");
  // A session is its token's: another token cannot use it or end it.
  const std::string session = openSession(*served, agent);
  ASSERT_FALSE(session.empty());
  auto stolen = c.Post("/mcp", mcpHeaders(other, session),
                       R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", "application/json");
  ASSERT_TRUE(stolen);
  EXPECT_EQ(stolen->status, 404);
  auto end_other = c.Delete("/mcp", mcpHeaders(other, session));
  ASSERT_TRUE(end_other);
  EXPECT_EQ(end_other->status, 404);
  // Its own token lists through it, then ends it.
  auto listed = c.Post("/mcp", mcpHeaders(agent, session),
                       R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", "application/json");
  ASSERT_TRUE(listed);
  EXPECT_EQ(listed->status, 200);
  EXPECT_NE(listed->body.find("files__read_text_file"), std::string::npos) << listed->body;
  auto ended = c.Delete("/mcp", mcpHeaders(agent, session));
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->status, 200);
  auto after = c.Post("/mcp", mcpHeaders(agent, session),
                      R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})", "application/json");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 404);
  // And it still serves a well-behaved client.
  ClientRun run = overHttp(
      *served, agent,
      {callStep("files__read_text_file", {{"path", (workspace() / "notes.txt").string()}})});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  EXPECT_EQ(toolResultText(run.step(0)["result"]), "the notes of the workspace\n") << run;
  expectCleanStop(served);
}

// A thousand connections from another address, each opening a session or
// a stream and holding it: past the limits each is refused at once, no
// connection costs a thread, and a client from elsewhere is served as usual.
// One token's requests past the rate the operator set get 429 and say so;
// another token, with its own allowance, is served meanwhile.
TEST_F(McpHttpFace, ATokenPastItsRateIsRefusedWhileAnotherIsServed) {
  const std::string agent = token("agent", "coder");
  const std::string other = token("agent", "other");
  auto served = face({"--gateway", gatewayFile(""), "--rate", "3"});
  httplib::Client c("127.0.0.1", served->port());
  int refused = 0;
  std::string said;
  for (int i = 0; i < 12; ++i) {
    auto r = c.Post("/mcp", mcpHeaders(agent), initializeBody(), "application/json");
    ASSERT_TRUE(r);
    if (r->status == 429) {
      ++refused;
      said = r->body;
    } else {
      EXPECT_EQ(r->status, 200) << r->body;
    }
  }
  EXPECT_GE(refused, 6) << "12 requests at once with 3 a second allowed";
  EXPECT_NE(said.find("at most 3 a second"), std::string::npos) << said;
  auto r = c.Post("/mcp", mcpHeaders(other), initializeBody(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  expectCleanStop(served);
}

TEST_F(McpHttpFace, AThousandOpenStreamsAreRefusedPastTheLimitsWhileOthersAreServed) {
  const std::string agent = token("agent", "coder");
  const std::string flooder = token("agent", "flooder");
  auto served = face({"--gateway", gatewayFile(""), "--max-sessions", "40", "--max-streams", "20"});
  // The flooder's sessions: a quarter of 40.
  std::vector<std::string> sessions;
  for (int i = 0; i < 20; ++i) {
    const std::string id = openSession(*served, flooder);
    if (!id.empty()) sessions.push_back(id);
  }
  EXPECT_EQ(sessions.size(), 10u);
  std::vector<int> held;
  size_t opened = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::string from = "127.0.0." + std::to_string(2 + i % 200);
    const int fd = connectFrom(from, served->port());
    if (fd < 0) continue;
    const std::string& session = sessions[static_cast<size_t>(i) % sessions.size()];
    const std::string request =
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(served->port()) +
        "\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + flooder +
        "\r\nMcp-Session-Id: " + session + "\r\n\r\n";
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
        static_cast<ssize_t>(request.size())) {
      ++opened;
    }
    held.push_back(fd);
  }
  EXPECT_GT(opened, 500u);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // Each session took one GET stream; the other 990 were refused (409).
  size_t refused = 0;
  for (int fd : held) {
    char head[64] = {};
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 2000) > 0 && ::recv(fd, head, sizeof head - 1, 0) > 0 &&
        std::string(head).find(" 409 ") != std::string::npos) {
      ++refused;
    }
  }
  EXPECT_GE(refused, opened - sessions.size()) << "of " << opened;
  // Every connection still open, the service answers someone else at once.
  const std::string threads = slurp("/proc/" + std::to_string(served->pid()) + "/status");
  const size_t at = threads.find("Threads:");
  ASSERT_NE(at, std::string::npos);
  EXPECT_LT(std::stoi(threads.substr(at + 8)), 200) << "a thread per connection?";
  ClientRun run = overHttp(
      *served, agent,
      {callStep("files__read_text_file", {{"path", (workspace() / "notes.txt").string()}})});
  for (int fd : held) ::close(fd);
  ASSERT_EQ(run.run.exit_code, 0) << run;
  EXPECT_EQ(toolResultText(run.step(0)["result"]), "the notes of the workspace\n") << run;
  expectCleanStop(served);
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
