// `toolguard mcp --url`: the proxy in front of a server that speaks MCP's
// Streamable HTTP transport, between real peers: the official TypeScript
// SDK's client (tests/mcp-peers/client.mjs) and the reference "everything"
// server in its Streamable HTTP mode, plus a small recording server
// (tests/mcp-peers/http_recording_server.py) that writes down every request
// it receives, headers included, so a test can show what reached it.
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <thread>

#include "e2e/mcp_proxy_fixture.hpp"
#include "support/background_server.hpp"
#include "support/serve_process.hpp"

namespace toolguard::testing {
namespace mcp_proxy_test {

const std::string kRecording = std::string(MCP_PEERS_DIR) + "/http_recording_server.py";

// A server started in the background on `port`, ready once the port takes
// connections, stopped with SIGKILL (the reference server has no SIGTERM
// handler) when the test is done or when kill() is called.
class McpHttpUpstream : public McpProxy {
 protected:
  std::string policy(const std::string& server) const {
    return dir
        .write("policies/" + server + ".yaml",
               "rules:\n"
               "  - {id: all, tool: \"mcp__" +
                   server +
                   "__*\", verdict: allow}\n"
                   "  - id: no-env\n"
                   "    tool: mcp__" +
                   server +
                   "__get-env\n"
                   "    verdict: deny\n"
                   "    reason: the environment stays private\n"
                   "  - id: no-blocked-words\n"
                   "    tool: mcp__" +
                   server +
                   "__echo\n"
                   "    args:\n"
                   "      text: {glob: \"*blocked*\"}\n"
                   "    verdict: deny\n"
                   "    reason: blocked words stay out\n")
        .string();
  }

  // `tls`: over HTTPS with the certificate certificate() made.
  std::unique_ptr<BackgroundServer> recording(bool tls = false) const {
    std::map<std::string, std::string> environment = env();
    environment["RECORD"] = record().string();
    if (tls) {
      environment["TLS_CERT"] = (dir.path() / "server.pem").string();
      environment["TLS_KEY"] = (dir.path() / "server.key").string();
    }
    return std::make_unique<BackgroundServer>("/usr/bin/python3",
                                              std::vector<std::string>{kRecording}, environment,
                                              freePort(), (dir.path() / "recording.log").string());
  }
  fs::path record() const { return dir.path() / "recorded.jsonl"; }

  // A self-signed certificate for localhost and 127.0.0.1 (server.pem, server.key).
  void certificate() const {
    const RunResult r =
        runBinary("/usr/bin/openssl",
                  {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                   "-keyout", "server.key", "-out", "server.pem", "-days", "2", "-subj",
                   "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"},
                  "", {}, dir.path().string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::vector<json> recorded() const { return jsonLines(slurp(record().string()), "the record"); }

  // Runs `steps` through `toolguard mcp --name NAME --url URL EXTRA...`.
  ClientRun throughUrl(const std::string& name, const std::string& url,
                       const std::vector<json>& steps, const std::vector<std::string>& extra = {},
                       json script = json::object()) const {
    json args = {"mcp",
                 "--name",
                 name,
                 "--workspace",
                 workspace().string(),
                 "--audit-log",
                 auditLog().string(),
                 "--no-builtin",
                 "--policy",
                 policy(name),
                 "--url",
                 url};
    for (const std::string& option : extra) args.push_back(option);
    script["command"] = TOOLGUARD_BINARY;
    script["args"] = args;
    script["steps"] = json(steps);
    script["reportExit"] = true;
    return runClient(std::move(script));
  }
};

TEST_F(McpHttpUpstream, TheEverythingServersToolsAreListedJudgedAndCalled) {
  auto server = everything();
  ClientRun run =
      throughUrl("everything", server->url(),
                 {listStep(), callStep("echo", {{"message", "hello"}}),
                  callStep("get-sum", {{"a", 2}, {"b", 3}}),
                  callStep("trigger-long-running-operation", {{"duration", 1}, {"steps", 2}}),
                  callStep("get-env", json::object())});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  // Its listing came as an event stream: the denied tool was taken out of it.
  const std::vector<std::string> tools = run.step(0).value("tools", std::vector<std::string>{});
  EXPECT_TRUE(contains(tools, "echo")) << run;
  EXPECT_TRUE(contains(tools, "get-sum")) << run;
  EXPECT_FALSE(contains(tools, "get-env")) << run;
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "Echo: hello") << run;
  EXPECT_EQ(toolResultText(run.step(2)["result"]), "The sum of 2 and 3 is 5.") << run;
  EXPECT_NE(toolResultText(run.step(3)["result"]).find("Long running operation completed"),
            std::string::npos)
      << run;
  expectBlocked(run.step(4), "get-env", "");
  bool echo_allowed = false;
  for (const json& record : auditRecords()) {
    if (record.value("tool", "") == "mcp__everything__echo") {
      echo_allowed = record.value("verdict", "") == "allow";
    }
  }
  EXPECT_TRUE(echo_allowed);
}

TEST_F(McpHttpUpstream, OnlyWhatIsAllowedReachesTheServerWithTheProxysOwnHeaders) {
  auto server = recording();
  json script = {{"extra_env", {{"SERVER_KEY", "k-8f2e61d0-secret"}}}};
  ClientRun run = throughUrl(
      "rec", server->url(),
      {listStep(), callStep("echo", {{"text", "hi"}}),
       callStep("echo", {{"text", "a blocked word"}}), callStep("slow", {{"text", "s"}})},
      {"--header", "X-Server-Key: ${SERVER_KEY}"}, script);
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "echo: hi") << run;
  expectBlocked(run.step(2), "echo", "blocked words stay out");
  EXPECT_EQ(toolResultText(run.step(3)["result"]), "slow: s") << run;

  const std::vector<json> requests = recorded();
  ASSERT_GE(requests.size(), 5u);
  EXPECT_EQ(requests.front()["body"].value("method", ""), "initialize");
  EXPECT_EQ(requests.back().value("method", ""), "DELETE") << "the session is ended";
  std::string session;
  for (size_t i = 0; i < requests.size(); ++i) {
    const json& request = requests[i];
    SCOPED_TRACE(request.dump());
    EXPECT_EQ(request["headers"].value("x-server-key", ""), "k-8f2e61d0-secret");
    if (request.value("method", "") == "POST") {
      EXPECT_NE(request["headers"].value("accept", "").find("text/event-stream"),
                std::string::npos);
      const std::string body = request["body"].dump();
      EXPECT_EQ(body.find("blocked word"), std::string::npos) << "a denied call reached the server";
    }
    if (i == 0) continue;
    // After initialize, every request names the session and the protocol.
    if (session.empty()) session = request["headers"].value("mcp-session-id", "");
    EXPECT_FALSE(session.empty());
    EXPECT_EQ(request["headers"].value("mcp-session-id", ""), session);
    EXPECT_FALSE(request["headers"].value("mcp-protocol-version", "").empty());
  }
  // The credential is the proxy's: never in its audit or its messages.
  EXPECT_EQ(slurp(auditLog().string()).find("k-8f2e61d0-secret"), std::string::npos);
  EXPECT_EQ(run.run.err.find("k-8f2e61d0-secret"), std::string::npos);
}

TEST_F(McpHttpUpstream, AStreamThatBreaksIsResumedAndResultsAreJudged) {
  auto server = recording();
  ClientRun run = throughUrl(
      "rec", server->url(),
      {listStep(), callStep("flaky", {{"text", "f"}}), callStep("leak", json::object())});
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  // The stream broke after its first event; the rest came on a GET that
  // named that event.
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "flaky: f") << run;
  bool resumed = false;
  for (const json& request : recorded()) {
    resumed |= request.value("method", "") == "GET" &&
               request["headers"].value("last-event-id", "") == "flaky-1";
  }
  EXPECT_TRUE(resumed);
  // A credential in a result is redacted before the client sees it.
  const std::string leaked = toolResultText(run.step(2)["result"]);
  EXPECT_EQ(leaked.find("wJalrXUtnFEMI"), std::string::npos) << leaked;
  EXPECT_NE(leaked.find("[REDACTED]"), std::string::npos) << leaked;
}

// https:// goes through the TLS helper: a server whose certificate the
// system (here SSL_CERT_FILE) trusts and that names the host is reached; one
// that is not trusted is refused before anything is sent.
TEST_F(McpHttpUpstream, AServerOverHttpsIsReachedOnlyWhenItsCertificateIsTrusted) {
  certificate();
  auto server = recording(true);
  const std::string url = "https://localhost:" + std::to_string(server->port()) + "/mcp";
  json trusting = {{"extra_env", {{"SSL_CERT_FILE", (dir.path() / "server.pem").string()}}}};
  ClientRun run =
      throughUrl("rec", url, {listStep(), callStep("echo", {{"text", "over tls"}})}, {}, trusting);
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  EXPECT_EQ(toolResultText(run.step(1)["result"]), "echo: over tls") << run;
  EXPECT_FALSE(recorded().empty());

  fs::remove(record());
  ClientRun untrusted = throughUrl("rec", url, {listStep()});
  EXPECT_NE(untrusted.run.out.find("fatal"), std::string::npos) << untrusted;
  EXPECT_NE(untrusted.run.out.find("certificate is not trusted"), std::string::npos) << untrusted;
  EXPECT_FALSE(fs::exists(record())) << "nothing reached the server";
}

TEST_F(McpHttpUpstream, AServerKilledMidCallGivesTheClientAnError) {
  auto server = everything();
  std::thread killer([&server] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    server->kill();
  });
  ClientRun run =
      throughUrl("everything", server->url(),
                 {callStep("trigger-long-running-operation", {{"duration", 20}, {"steps", 4}}),
                  callStep("echo", {{"message", "still there?"}})});
  killer.join();
  ASSERT_EQ(run.run.exit_code, 0) << run;
  expectCleanExit(run);
  for (size_t i = 0; i < 2; ++i) {
    const json step = run.step(i);
    ASSERT_TRUE(step.contains("error")) << run;
    EXPECT_NE(step["error"].value("message", "").find("the server \"everything\" did not answer"),
              std::string::npos)
        << run;
  }
}

TEST_F(McpHttpUpstream, UrlsAndHeadersItCannotUseAreRefusedAndSecretsNotShown) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--url", "http://10.1.2.3:8080/mcp"}, "plain http:// only to this machine"},
      {{"--url", "http://user:pw@127.0.0.1:9/mcp"}, "credentials in the URL are not taken"},
      {{"--url", "ftp://127.0.0.1/mcp"}, "must start with http:// or https://"},
      {{"--url", "http://127.0.0.1:9/mcp", "--header", "X-Key: ${TG_TEST_UNSET_VARIABLE}"},
       "TG_TEST_UNSET_VARIABLE is not set"},
      {{"--url", "http://127.0.0.1:9/mcp", "--header", "not a header"}, "--header takes"},
      {{"--url", "http://127.0.0.1:9/mcp", "--header", "Transfer-Encoding: chunked"},
       "writes this header itself"},
      {{"--url", "http://127.0.0.08:9/mcp"}, "plain http:// only to this machine"},
      {{"--url", "http://127.1/mcp"}, "plain http:// only to this machine"},
      {{"--url", "http://127.0.0.1:9/mcp", "--sandbox"}, "--sandbox confines a command"},
      {{"--url", "http://127.0.0.1:9/mcp", "--", "node", "server.js"}, "one of the two"},
      {{"--header", "X-Key: v", "--", "node", "server.js"}, "--header goes with --url"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"mcp", "--name", "x"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult r = run(args);
    SCOPED_TRACE(r.err);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.message;
  }
  // No server there: the client's initialize gets an error naming the
  // address, never the header's value.
  json script = {{"extra_env", {{"TG_TEST_KEY", "k-77aa-secret"}}}};
  ClientRun refused = throughUrl("x", "http://127.0.0.1:" + std::to_string(freePort()) + "/mcp",
                                 {listStep()}, {"--header", "X-Key: ${TG_TEST_KEY}"}, script);
  EXPECT_NE(refused.run.out.find("fatal"), std::string::npos) << refused;
  EXPECT_NE(refused.run.out.find("cannot connect to 127.0.0.1"), std::string::npos) << refused;
  EXPECT_EQ(refused.run.out.find("k-77aa-secret"), std::string::npos);
  EXPECT_EQ(refused.run.err.find("k-77aa-secret"), std::string::npos);
}

}  // namespace mcp_proxy_test
}  // namespace toolguard::testing
