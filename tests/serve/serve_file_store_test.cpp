// `toolguard serve` with the file store, end to end: real serve processes,
// real `toolguard check --server` hooks, tokens made by the command.
#include <sys/socket.h>
#include <sys/un.h>

#include <future>

#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace serve_file_store_test {

using nlohmann::json;

TEST_F(Serve, ChecksAnswerAsTheCommandDoesAndTheTokenNamesTheAgent) {
  const std::string agent = token("agent", "ci-bot");
  auto server = start();
  auto c = client(*server, agent);
  json call = Serve::call("ls -la");
  call["context"]["agent"] = "claimed-by-the-request";
  auto r = c->Post("/v1/check", call.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json d = json::parse(r->body);
  EXPECT_EQ(d["verdict"], "allow");
  EXPECT_EQ(d["rule"], "shell-safe");
  // The same call through the command, locally: the same verdict and rule.
  RunResult local = run({"check"}, Serve::call("ls -la").dump());
  EXPECT_EQ(json::parse(local.out)["rule"], d["rule"]);
  // Claude Code's hook format, over keep-alive on the same client.
  json hook = {{"tool_name", "Bash"},
               {"tool_input", {{"command", "ls"}}},
               {"hook_event_name", "PreToolUse"},
               {"session_id", "s"},
               {"cwd", "/tmp"}};
  r = c->Post("/v1/check?format=claude", hook.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(json::parse(r->body)["hookSpecificOutput"]["permissionDecision"], "allow");
  // The audit names the token's agent, not the one the request claimed.
  const std::string admin = token("admin", "root");
  r = client(*server, admin)->Get("/v1/audit?tool=Bash");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json records = json::parse(r->body);
  ASSERT_GE(records.size(), 2u);
  EXPECT_EQ(records[0]["context"]["agent"], "ci-bot");
}

TEST_F(Serve, TokensAreCheckedAndRefusalsAudited) {
  const std::string agent = token("agent", "bot");
  const std::string approver = token("approver", "alice");
  const std::string admin = token("admin", "root");
  auto server = start();
  const std::string body = Serve::call("ls").dump();
  EXPECT_EQ(client(*server, "")->Post("/v1/check", body, "application/json")->status, 401);
  EXPECT_EQ(client(*server, "tg_forged")->Post("/v1/check", body, "application/json")->status, 401);
  EXPECT_EQ(client(*server, approver)->Post("/v1/check", body, "application/json")->status, 403);
  EXPECT_EQ(client(*server, agent)->Get("/v1/asks")->status, 403);
  EXPECT_EQ(client(*server, agent)->Get("/v1/audit")->status, 403);
  // An approver reads the audit (the web queue's history) but not the metrics.
  EXPECT_EQ(client(*server, approver)->Get("/v1/audit")->status, 200);
  EXPECT_EQ(client(*server, approver)->Get("/metrics")->status, 403);
  EXPECT_EQ(client(*server, agent)->Get("/metrics")->status, 403);
  EXPECT_EQ(client(*server, agent)->Post("/v1/check", body, "application/json")->status, 200);
  // Revoked: refused (within the second the service keeps a token).
  RunResult revoked = run({"serve", "token", "revoke", "bot"});
  EXPECT_EQ(revoked.exit_code, 0) << revoked.err;
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(client(*server, agent)->Post("/v1/check", body, "application/json")->status, 401);
  auto r = client(*server, admin)->Get("/v1/audit");
  ASSERT_EQ(r->status, 200);
  int refused = 0;
  for (const json& record : json::parse(r->body)) {
    if (record.value("event", "") == "request-refused") ++refused;
    EXPECT_EQ(record.dump().find(agent), std::string::npos) << "a token was written to the audit";
  }
  EXPECT_EQ(refused, 8);
  // The token list never shows a secret.
  RunResult list = run({"serve", "token", "list"});
  EXPECT_NE(list.out.find("alice\tapprover"), std::string::npos) << list.out;
  EXPECT_EQ(list.out.find(approver), std::string::npos);
  r = client(*server, admin)->Get("/metrics");
  ASSERT_EQ(r->status, 200);
  EXPECT_NE(r->body.find("toolguard_requests_refused_total{status=\"401\"} 3"), std::string::npos)
      << r->body;
  EXPECT_NE(r->body.find("toolguard_decisions_total{verdict=\"allow\",rule=\"shell-safe\"}"),
            std::string::npos);
}

TEST_F(Serve, AHookWaitsForAnAnswerAndAlwaysSettlesTheNextCall) {
  const std::string agent = token("agent", "ci-bot");
  auto approver = [&, t = token("approver", "alice")](const ServeProcess& s) {
    return client(s, t);
  };
  auto server = start();
  const std::map<std::string, std::string> hook_env = {{"TOOLGUARD_TOKEN", agent}};
  const json asked = call("git push origin main");
  auto waiting = std::async(std::launch::async, [&] {
    return run({"check", "--server", server->url(), "--wait", "30"}, asked.dump(), hook_env);
  });
  auto a = approver(*server);
  json asks = pendingAsks(*a, 1);
  ASSERT_EQ(asks.size(), 1u);
  const json& ask = asks[0];
  EXPECT_EQ(ask["call"]["args"]["command"], "git push origin main");
  EXPECT_EQ(ask["agent"], "ci-bot");
  EXPECT_EQ(ask["decision"]["verdict"], "ask");
  // The bindings the terminal prompt offers: this exact call and a command pattern.
  ASSERT_EQ(ask["offer"]["bindings"].size(), 2u);
  EXPECT_EQ(ask["offer"]["bindings"][1]["value"], "git push origin *");
  // A binding that was not offered is refused.
  auto bad = a->Post("/v1/asks/" + ask["id"].get<std::string>() + "/answer",
                     R"({"answer":"always","binding":"tool"})", "application/json");
  EXPECT_EQ(bad->status, 400) << bad->body;
  auto answered =
      a->Post("/v1/asks/" + ask["id"].get<std::string>() + "/answer",
              R"({"answer":"always","binding":"pattern","scope":"project"})", "application/json");
  ASSERT_EQ(answered->status, 200) << answered->body;
  RunResult hook = waiting.get();
  ASSERT_EQ(hook.exit_code, 0) << hook.err;
  const json d = json::parse(hook.out);
  EXPECT_EQ(d["verdict"], "allow") << hook.out;
  EXPECT_EQ(d["approval"]["by"], "serve");
  // A second answer gets 409 and who answered first.
  auto late = a->Post("/v1/asks/" + ask["id"].get<std::string>() + "/answer",
                      R"({"answer":"deny","note":"too late"})", "application/json");
  EXPECT_EQ(late->status, 409);
  EXPECT_NE(late->body.find("answered first by alice"), std::string::npos) << late->body;
  // The remembered pattern settles the next matching call without asking.
  RunResult next = run({"check", "--server", server->url(), "--wait", "30"},
                       call("git push origin dev").dump(), hook_env);
  EXPECT_EQ(json::parse(next.out)["verdict"], "allow") << next.out;
  EXPECT_EQ(json::parse(next.out)["approval"]["by"], "store") << next.out;
}

TEST_F(Serve, AnAskNobodyAnswersIsDeniedAndExpires) {
  const std::string agent = token("agent", "bot");
  const std::string approver = token("approver", "alice");
  auto server = start();
  RunResult hook = run({"check", "--server", server->url(), "--wait", "1"},
                       call("git push origin main").dump(), {{"TOOLGUARD_TOKEN", agent}});
  const json d = json::parse(hook.out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("expired"), std::string::npos) << hook.out;
  auto r = client(*server, approver)->Get("/v1/asks?state=expired");
  ASSERT_EQ(json::parse(r->body).size(), 1u) << r->body;
  const std::string id = json::parse(r->body)[0]["id"];
  auto late =
      client(*server, approver)
          ->Post("/v1/asks/" + id + "/answer", R"({"answer":"allow_once"})", "application/json");
  EXPECT_EQ(late->status, 409);
}

TEST_F(Serve, AnAsyncAskIsPolledByItsAgentAndAnsweredDeny) {
  const std::string agent = token("agent", "bot");
  const std::string other = token("agent", "other");
  const std::string approver = token("approver", "alice");
  auto server = start();
  auto r = client(*server, agent)
               ->Post("/v1/check?async=1", call("git push origin main").dump(), "application/json");
  const json d = json::parse(r->body);
  ASSERT_EQ(d["verdict"], "ask") << r->body;
  const std::string id = d["ask"]["id"];
  EXPECT_EQ(client(*server, agent)->Get("/v1/asks/" + id)->status, 200);
  EXPECT_EQ(client(*server, other)->Get("/v1/asks/" + id)->status, 404);
  EXPECT_EQ(client(*server, agent)->Get("/v1/asks/../../etc/passwd")->status, 404);
  auto answered = client(*server, approver)
                      ->Post("/v1/asks/" + id + "/answer",
                             R"({"answer":"deny","note":"not on Fridays"})", "application/json");
  ASSERT_EQ(answered->status, 200) << answered->body;
  const json polled = json::parse(client(*server, agent)->Get("/v1/asks/" + id)->body);
  EXPECT_EQ(polled["state"], "answered");
  EXPECT_EQ(polled["answer"]["answer"], "deny");
  EXPECT_EQ(polled["answer"]["note"], "not on Fridays");
  EXPECT_EQ(polled["answer"]["by"], "alice");
}

TEST_F(Serve, AHookFailsClosedWhenTheServiceCannotAnswer) {
  const std::string agent = token("agent", "bot");
  const std::string body = call("ls").dump();
  // Nothing listens there.
  RunResult r = run({"check", "--server", "http://127.0.0.1:" + std::to_string(freePort())}, body,
                    {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny");
  EXPECT_NE(r.err.find("could not be asked"), std::string::npos) << r.err;
  // Claude Code's format: exit 2 blocks the call.
  r = run({"check", "--format", "claude", "--server", "unix:/nonexistent.sock"}, body,
          {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(r.exit_code, 2);
  // No token.
  auto server = start();
  r = run({"check", "--server", server->url()}, body);
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny");
  // A server that answers garbage (a listener that is not toolguard).
  httplib::Server liar;
  liar.Post("/v1/check", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"verdict":"yes please"})", "application/json");
  });
  const int port = liar.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { liar.listen_after_bind(); });
  r = run({"check", "--server", "http://127.0.0.1:" + std::to_string(port)}, body,
          {{"TOOLGUARD_TOKEN", agent}});
  // In a hook's format, an object that is not that format's decision (here
  // no permissionDecision, which would leave the call to Claude Code's own
  // rules) is no decision either.
  RunResult hook =
      run({"check", "--format", "claude", "--server", "http://127.0.0.1:" + std::to_string(port)},
          R"({"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp",)"
          R"("hook_event_name":"PreToolUse","session_id":"s"})",
          {{"TOOLGUARD_TOKEN", agent}});
  liar.stop();
  EXPECT_EQ(hook.exit_code, 2) << hook.out;
  EXPECT_NE(hook.err.find("no decision"), std::string::npos) << hook.err;
  serving.join();
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny") << r.out;
  EXPECT_NE(r.err.find("no decision"), std::string::npos) << r.err;
}

// A raw connection, for what no well-behaved client sends.
int connectTo(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return -1;
  return fd;
}

TEST_F(Serve, MisbehavingClientsGetTheirErrorAndTheServerKeepsServing) {
  const std::string agent = token("agent", "bot");
  auto server = start({"--idle-timeout", "1", "--max-body", "65536"});
  auto c = client(*server, agent);
  // A slow-loris client: half a request line, then nothing.
  const int slow = connectTo(server->port());
  ASSERT_GE(slow, 0);
  ASSERT_EQ(send(slow, "POST /v1/check HTTP/1.1\r\nHost: x\r\n", 34, 0), 34);
  // An oversized body.
  auto r = c->Post("/v1/check", std::string(100000, ' '), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  // 10,000-deep JSON: refused as not a call (400 with why), not a crash.
  auto deep = client(*server, agent);
  r = deep->Post("/v1/check", std::string(10000, '[') + std::string(10000, ']'),
                 "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(r->body.find("nested deeper"), std::string::npos) << r->body;
  // A body that is not JSON.
  r = deep->Post("/v1/check", "not json", "application/json");
  EXPECT_EQ(r->status, 400) << r->body;
  // JSON that is not a call: a deny, as `check` prints it.
  r = deep->Post("/v1/check", R"({"no":"tool"})", "application/json");
  EXPECT_EQ(json::parse(r->body)["verdict"], "deny") << r->body;
  // Meanwhile everyone else is served.
  r = client(*server, agent)->Post("/v1/check", call("ls").dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(json::parse(r->body)["verdict"], "allow");
  // And the slow client is let go once it has been silent past the idle timeout.
  pollfd p{slow, POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 5000), 1);
  char byte;
  EXPECT_LE(recv(slow, &byte, 1, 0), 0);
  close(slow);
}

TEST_F(Serve, ABrokenPolicyKeepsThePreviousOneServing) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  const auto policy = dir.write("team.yaml",
                                "version: 1\nrules:\n  - id: no-ls\n    tool: Bash\n"
                                "    shell: {command: ls}\n    verdict: deny\n"
                                "    reason: not here\n");
  auto server = start({"--policy", policy.string()});
  auto c = client(*server, agent);
  EXPECT_EQ(json::parse(c->Post("/v1/check", call("ls").dump(), "application/json")->body)["rule"],
            "no-ls");
  dir.write("team.yaml", "version: 1\nrules: [oops\n");
  server->signal(SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(json::parse(c->Post("/v1/check", call("ls").dump(), "application/json")->body)["rule"],
            "no-ls");
  auto m = client(*server, admin)->Get("/metrics");
  EXPECT_NE(m->body.find("toolguard_policy_loaded 0"), std::string::npos) << m->body;
  // Fixed: the file watch reloads it without a signal.
  dir.write("team.yaml",
            "version: 1\nrules:\n  - id: no-ls-la\n    tool: Bash\n"
            "    shell: {command: ls}\n    verdict: deny\n    reason: still not here\n");
  std::string rule;
  for (int i = 0; i < 40 && rule != "no-ls-la"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    rule = json::parse(c->Post("/v1/check", call("ls").dump(), "application/json")->body)
               .value("rule", "");
  }
  EXPECT_EQ(rule, "no-ls-la");
}

TEST_F(Serve, OneTokenMayKeepOnlySoManyAsksWaiting) {
  const std::string agent = token("agent", "bot");
  auto server = start({"--max-pending-asks", "2"});
  auto c = client(*server, agent);
  for (int i = 0; i < 2; ++i) {
    auto r = c->Post("/v1/check?async=1", call("git push origin b" + std::to_string(i)).dump(),
                     "application/json");
    ASSERT_EQ(r->status, 200) << r->body;
  }
  auto third = c->Post("/v1/check?async=1", call("git push origin b3").dump(), "application/json");
  EXPECT_EQ(third->status, 429);
  EXPECT_NE(third->body.find("2 asks waiting"), std::string::npos) << third->body;
  // Waiting for a person is refused the same way: the call is denied, with why.
  auto waited = c->Post("/v1/check?wait=5", call("git push origin b4").dump(), "application/json");
  const json d = json::parse(waited->body);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("2 asks waiting"), std::string::npos) << d;
}

TEST_F(Serve, OldAsksAreDeletedAndTheAuditKeepsTheirAnswers) {
  const std::string agent = token("agent", "bot");
  const std::string approver = token("approver", "alice");
  const std::string admin = token("admin", "root");
  auto server = start({"--keep-asks", "1", "--max-wait", "1"});
  auto r = client(*server, agent)
               ->Post("/v1/check?async=1", call("git push origin a").dump(), "application/json");
  const std::string id = json::parse(r->body)["ask"]["id"];
  auto answered =
      client(*server, approver)
          ->Post("/v1/asks/" + id + "/answer", R"({"answer":"deny"})", "application/json");
  ASSERT_EQ(answered->status, 200) << answered->body;
  // Expired a second after it was made, deleted a second after that.
  bool gone = false;
  for (int i = 0; i < 60 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gone = client(*server, approver)->Get("/v1/asks/" + id)->status == 404;
  }
  EXPECT_TRUE(gone);
  auto audit = client(*server, admin)->Get("/v1/audit");
  EXPECT_NE(audit->body.find("\"ask\":\"" + id + "\""), std::string::npos) << audit->body;
}

TEST_F(Serve, AUnixSocketServesLocalHooks) {
  const std::string agent = token("agent", "bot");
  const std::string socket = (dir.path() / "toolguard.sock").string();
  auto server = start({"--socket", socket});
  RunResult r =
      run({"check", "--server", "unix:" + socket}, call("ls").dump(), {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["verdict"], "allow");
}

}  // namespace serve_file_store_test
}  // namespace toolguard::testing
