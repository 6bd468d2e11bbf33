// The edges of `toolguard serve` read strictly, end to end: a body that is
// more than one call, the Bearer scheme in any case, a reply with a key
// twice read by `check --server` as no decision, and nothing about the store
// told to a caller without a valid token.
#include <httplib.h>

#include <future>

#include "serve/serve_fixture.hpp"
#include "support/loopback_connect.hpp"

namespace toolguard::testing {
namespace serve_strict_edges_test {

using nlohmann::json;

TEST_F(Serve, BytesAfterTheCallAreAnErrorNotJudgedByTheFirst) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  auto c = client(*server, agent);
  const std::string first = call("ls").dump();
  const std::string second = call("rm -rf /").dump();
  for (const std::string& body :
       {first + std::string(1, '\0') + second, first + second, first + "\n" + second,
        first + std::string(1, '\0'), first + " x", std::string(1, '\0') + first}) {
    auto r = c->Post("/v1/check", body, "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << json(body).dump() << ": " << r->body;
    EXPECT_NE(r->body.find("invalid call"), std::string::npos) << r->body;
  }
  auto nul = c->Post("/v1/check", first + std::string(1, '\0') + second, "application/json");
  EXPECT_NE(nul->body.find("NUL"), std::string::npos) << nul->body;
  // Whitespace after the call is still one call.
  for (const std::string& body : {first + "\n", first + " \r\n\t "}) {
    auto r = c->Post("/v1/check", body, "application/json");
    EXPECT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(json::parse(r->body)["verdict"], "allow") << r->body;
  }
  // The same in a hook's format, and through the hook command.
  const json hook = {{"tool_name", "Bash"},
                     {"tool_input", {{"command", "ls"}}},
                     {"hook_event_name", "PreToolUse"},
                     {"cwd", "/tmp"}};
  auto r = c->Post("/v1/check?format=claude", hook.dump() + std::string(1, '\0') + "{}",
                   "application/json");
  EXPECT_EQ(r->status, 400) << r->body;
  RunResult hooked =
      run({"check", "--server", server->url()}, first + second, {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(hooked.exit_code, 2) << hooked.out;
  EXPECT_EQ(json::parse(hooked.out)["verdict"], "deny") << hooked.out;
  // Audited as malformed, never as an allow of the first call.
  auto audit = client(*server, admin)->Get("/v1/audit");
  for (const json& record : json::parse(audit->body)) {
    if (record.value("event", "") == "request-refused") continue;
    if (record.value("verdict", "") == "allow") {
      EXPECT_EQ(record["args"]["command"], "ls") << record;
    }
  }
}

TEST_F(Serve, TheBearerSchemeIsReadInAnyCase) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  const std::string body = call("ls").dump();
  httplib::Client c("127.0.0.1", server->port());
  for (const std::string& scheme :
       std::vector<std::string>{"Bearer ", "bearer ", "BEARER ", "bEaReR ", "Bearer   "}) {
    auto r = c.Post("/v1/check", {{"Authorization", scheme + agent}}, body, "application/json");
    EXPECT_EQ(r->status, 200) << scheme << ": " << r->body;
  }
  for (const std::string& header : std::vector<std::string>{
           "Bearer", "Bearer ", "Bearer" + agent, "Basic " + agent, "Bearer\t" + agent,
           "Bearer " + agent + " x", "Token " + agent, agent}) {
    auto r = c.Post("/v1/check", {{"Authorization", header}}, body, "application/json");
    EXPECT_EQ(r->status, 401) << header << ": " << r->body;
  }
}

// A request's head has 8 KiB of the connection's memory (zeroed after every
// request, so kept small): a head of 6 KiB is answered, a larger one gets
// 431 and no decision, and the service goes on; a body has no such bound
// below its own limit.
TEST_F(Serve, ALargeHeadIsRefusedWithoutADecisionAndALargeBodyIsNot) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  httplib::Client c("127.0.0.1", server->port());
  const std::string body = call("ls").dump();
  const httplib::Headers fits = {{"Authorization", "Bearer " + agent},
                                 {"X-Padding", std::string(6 * 1024, 'a')}};
  auto answered = c.Post("/v1/check", fits, body, "application/json");
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->status, 200) << answered->body;
  // Sent by hand: the service answers and closes while the head still
  // arrives, and a client library's write would then raise SIGPIPE.
  const int fd = connectFrom("127.0.0.1", server->port());
  ASSERT_GE(fd, 0);
  const std::string head = "POST /v1/check HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + agent +
                           "\r\nX-Padding: " + std::string(9 * 1024, 'a') +
                           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  ::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
  std::string refused;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) refused.append(buffer, n);
  ::close(fd);
  EXPECT_EQ(refused.rfind("HTTP/1.1 431 ", 0), 0u) << refused;
  EXPECT_EQ(refused.find("verdict"), std::string::npos) << refused;
  const json big = {
      {"tool", "Write"},
      {"args", {{"file_path", "src/a.cpp"}, {"content", std::string(512 * 1024, 'x')}}},
      {"context", {{"cwd", "/tmp"}}}};
  auto large_body =
      c.Post("/v1/check", {{"Authorization", "Bearer " + agent}}, big.dump(), "application/json");
  ASSERT_TRUE(large_body);
  EXPECT_EQ(large_body->status, 200) << large_body->body;
  EXPECT_EQ(json::parse(large_body->body)["tool"], "Write") << large_body->body;
}

// `check --server` against a service whose reply is `reply`.
RunResult checkAgainst(const Serve& s, const std::string& reply, const std::string& format = "") {
  httplib::Server fake;
  fake.Post("/v1/check", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(reply, "application/json");
  });
  const int port = fake.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { fake.listen_after_bind(); });
  std::vector<std::string> args = {"check", "--server", "http://127.0.0.1:" + std::to_string(port)};
  if (!format.empty()) args.insert(args.end(), {"--format", format});
  RunResult r = s.run(args, Serve::call("ls").dump(), {{"TOOLGUARD_TOKEN", "tg_x"}});
  fake.stop();
  serving.join();
  return r;
}

TEST_F(Serve, ARemoteReplyWithAKeyTwiceIsNoDecision) {
  for (const std::string& reply :
       std::vector<std::string>{R"({"verdict":"deny","verdict":"allow"})",
                                R"({"verdict":"allow","reason":"a","reason":"b"})",
                                std::string(R"({"verdict":"allow"})") + '\0' + "x",
                                R"({"verdict":"allow"}{"verdict":"deny"})"}) {
    RunResult r = checkAgainst(*this, reply);
    EXPECT_EQ(r.exit_code, 2) << reply << ": " << r.out;
    EXPECT_NE(r.err.find("no decision"), std::string::npos) << r.err;
    EXPECT_EQ(json::parse(r.out)["verdict"], "deny") << r.out;
  }
  RunResult claude = checkAgainst(
      *this, R"({"hookSpecificOutput":{"permissionDecision":"deny","permissionDecision":"allow"}})",
      "claude");
  EXPECT_EQ(claude.exit_code, 2) << claude.out;
  // A well-formed reply still passes.
  RunResult plain = checkAgainst(*this, R"({"verdict":"allow","reason":"fine"})");
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
}

TEST_F(ServePostgres, AStoreFailureTellsNoOneWithoutATokenAboutTheStore) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  db->stop();
  const std::string port =
      store.substr(store.rfind(':') + 1, store.rfind('/') - store.rfind(':') - 1);
  for (const std::string& who : {std::string("tg_unknown_token_0123456789"), agent}) {
    auto r = client(*server, who)->Post("/v1/check", call("ls").dump(), "application/json");
    ASSERT_TRUE(r);
    if (who == agent && r->status == 200) continue;  // its token was still known: a deny
    EXPECT_EQ(r->status, 503) << r->body;
    EXPECT_EQ(json::parse(r->body), json({{"error", "service unavailable"}})) << r->body;
    for (const std::string& leak :
         std::vector<std::string>{store, port, std::string("postgres"), std::string("connection"),
                                  std::string("store"), std::string("127.0.0.1")}) {
      EXPECT_EQ(r->body.find(leak), std::string::npos) << leak << " in " << r->body;
    }
  }
  // The web queue's sign-in and a session cookie, the same.
  httplib::Client c("127.0.0.1", server->port());
  auto r = c.Post("/ui/session", json({{"token", agent}}).dump(), "application/json");
  EXPECT_EQ(r->status, 503) << r->body;
  EXPECT_EQ(r->body.find("postgres"), std::string::npos) << r->body;
  r = c.Get("/v1/asks", {{"Cookie", "toolguard_session=tg_made_up"}});
  EXPECT_EQ(r->status, 503) << r->body;
  EXPECT_EQ(r->body.find("postgres"), std::string::npos) << r->body;
}

}  // namespace serve_strict_edges_test
}  // namespace toolguard::testing
