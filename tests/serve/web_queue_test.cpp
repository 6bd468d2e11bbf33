// The web queue's server side, end to end against real serve processes: the
// page and its headers, signing in (cookie attributes, who may), the CSRF
// and origin checks of every change made with the cookie, the long poll that
// wakes on a new ask, what an ask carries for the page (machine, parsed
// commands with their findings, resolved paths), the approvals list and its
// revocation, the audit filter by agent, the webhook of new asks, and a
// session shared by two instances on PostgreSQL. The page itself is driven
// in a real browser by tests/browser/.
#include <fstream>
#include <future>

#include "serve/serve_fixture.hpp"

namespace toolguard::testing {
namespace web_queue_test {

using nlohmann::json;

// A signed-in browser, as far as HTTP goes: the session cookie and the CSRF token.
struct WebSession {
  std::string cookie;  // "toolguard_session=..."
  std::string csrf;
  httplib::Headers headers(bool with_csrf = true) const {
    httplib::Headers h{{"Cookie", cookie}};
    if (with_csrf) h.emplace("X-CSRF-Token", csrf);
    return h;
  }
};

WebSession signIn(httplib::Client& anonymous, const std::string& token) {
  auto r = anonymous.Post("/ui/session", json{{"token", token}}.dump(), "application/json");
  EXPECT_TRUE(r && r->status == 200) << (r ? r->body : "no response");
  if (!r || r->status != 200) return {};
  const std::string set = r->get_header_value("Set-Cookie");
  return {set.substr(0, set.find(';')), json::parse(r->body)["csrf"]};
}

TEST_F(Serve, ThePageIsServedWithAStrictContentSecurityPolicyAndNeedsNoToken) {
  auto server = start();
  auto c = client(*server, "");
  size_t total = 0;
  for (const char* path : {"/", "/ui/app.js", "/ui/app.css"}) {
    auto r = c->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
    const std::string csp = r->get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << path << ": " << csp;
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
    EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(r->get_header_value("X-Frame-Options"), "DENY");
    total += r->body.size();
  }
  EXPECT_LT(total, 100u * 1024u) << "the page must load in under 100 KB";
  EXPECT_NE(c->Get("/")->body.find("/ui/app.js"), std::string::npos);
  EXPECT_EQ(c->Get("/ui/nothing.js")->status, 401);  // not a file of the page: an API path
  EXPECT_EQ(c->Post("/ui/app.js", "", "text/plain")->status, 405);
}

TEST_F(Serve, SigningInTakesAnApproversTokenAndGivesAStrictCookie) {
  const std::string agent = token("agent", "ci-bot");
  const std::string approver = token("approver", "alice");
  auto server = start();
  auto c = client(*server, "");
  auto r = c->Post("/ui/session", json{{"token", approver}}.dump(), "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  const std::string set = r->get_header_value("Set-Cookie");
  EXPECT_TRUE(set.starts_with("toolguard_session=tg_")) << set;
  EXPECT_NE(set.find("; HttpOnly"), std::string::npos) << set;
  EXPECT_NE(set.find("; SameSite=Strict"), std::string::npos) << set;
  EXPECT_NE(set.find("; Path=/"), std::string::npos) << set;
  EXPECT_EQ(set.find("Secure"), std::string::npos) << "plain http: " << set;
  EXPECT_EQ(set.find(approver), std::string::npos) << "the cookie is not the token";
  const json who = json::parse(r->body);
  EXPECT_EQ(who["name"], "alice");
  EXPECT_EQ(who["role"], "approver");
  EXPECT_EQ(who["csrf"].get<std::string>().size(), 64u);
  // Behind a TLS proxy the cookie is Secure, and a __Host- cookie (the whole host, TLS only).
  auto tls = c->Post("/ui/session", httplib::Headers{{"X-Forwarded-Proto", "https"}},
                     json{{"token", approver}}.dump(), "application/json");
  const std::string secure = tls->get_header_value("Set-Cookie");
  EXPECT_TRUE(secure.starts_with("__Host-toolguard_session=")) << secure;
  EXPECT_NE(secure.find("; Secure"), std::string::npos) << secure;
  EXPECT_EQ(c->Get("/ui/session", httplib::Headers{{"Cookie", secure.substr(0, secure.find(';'))}})
                ->status,
            200);
  // The session says who it is, never its CSRF token (a server on another
  // port of this host is sent the cookie too: it must not get the token
  // with it). Without a cookie, nobody.
  const std::string cookie = set.substr(0, set.find(';'));
  auto me = c->Get("/ui/session", httplib::Headers{{"Cookie", cookie}});
  ASSERT_EQ(me->status, 200) << me->body;
  EXPECT_EQ(json::parse(me->body)["name"], "alice");
  EXPECT_FALSE(json::parse(me->body).contains("csrf")) << me->body;
  EXPECT_EQ(c->Get("/ui/session")->status, 401);
  // Login CSRF: a form's text/plain, or another origin's request, signs nobody in.
  EXPECT_EQ(c->Post("/ui/session", json{{"token", approver}}.dump(), "text/plain")->status, 415);
  EXPECT_EQ(c->Post("/ui/session", httplib::Headers{{"Origin", "http://evil.example"}},
                    json{{"token", approver}}.dump(), "application/json")
                ->status,
            403);
  // An agent's token, an unknown one, garbage: no session.
  EXPECT_EQ(c->Post("/ui/session", json{{"token", agent}}.dump(), "application/json")->status, 403);
  EXPECT_EQ(c->Post("/ui/session", R"({"token":"tg_nope"})", "application/json")->status, 401);
  EXPECT_EQ(c->Post("/ui/session", R"({"token":1})", "application/json")->status, 400);
  EXPECT_EQ(
      c->Get("/ui/session", httplib::Headers{{"Cookie", "toolguard_session=tg_forged"}})->status,
      401);
  // Revoking the token ends its sessions (within the token cache's second).
  ASSERT_EQ(run({"serve", "token", "revoke", "alice", "--store", store}).exit_code, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(c->Get("/ui/session", httplib::Headers{{"Cookie", cookie}})->status, 401);
}

TEST_F(Serve, EveryChangeMadeWithTheCookieNeedsTheCsrfTokenAndTheSameOrigin) {
  const std::string agent = token("agent", "ci-bot");
  const std::string approver = token("approver", "alice");
  auto server = start();
  auto waiting = std::async(std::launch::async, [&] {
    return run({"check", "--server", server->url(), "--wait", "30"},
               call("git push origin main").dump(), {{"TOOLGUARD_TOKEN", agent}});
  });
  auto bearer = client(*server, approver);
  json asks = pendingAsks(*bearer, 1);
  ASSERT_EQ(asks.size(), 1u);
  const std::string answer_path = "/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer";
  auto c = client(*server, "");
  const WebSession web = signIn(*c, approver);
  // Reading needs only the cookie.
  EXPECT_EQ(c->Get("/v1/asks?state=pending", web.headers(false))->status, 200);
  // A change without the CSRF token, with a wrong one, or from another origin: 403.
  const std::string allow = R"({"answer":"allow_once"})";
  EXPECT_EQ(c->Post(answer_path, web.headers(false), allow, "application/json")->status, 403);
  httplib::Headers wrong{{"Cookie", web.cookie}, {"X-CSRF-Token", std::string(64, '0')}};
  EXPECT_EQ(c->Post(answer_path, wrong, allow, "application/json")->status, 403);
  httplib::Headers other = web.headers();
  other.emplace("Origin", "http://evil.example");
  EXPECT_EQ(c->Post(answer_path, other, allow, "application/json")->status, 403);
  // No cookie at all: 401. The ask is still waiting after all of them.
  EXPECT_EQ(c->Post(answer_path, allow, "application/json")->status, 401);
  EXPECT_EQ(pendingAsks(*bearer, 1).size(), 1u);
  // With the token and this origin: the answer is taken, by the session's name.
  httplib::Headers same = web.headers();
  same.emplace("Origin", server->url());
  auto ok = c->Post(answer_path, same, R"({"answer":"deny","note":"use the staging branch"})",
                    "application/json");
  ASSERT_EQ(ok->status, 200) << ok->body;
  EXPECT_EQ(json::parse(ok->body)["answer"]["by"], "alice");
  const json d = json::parse(waiting.get().out);
  EXPECT_EQ(d["verdict"], "deny");
  EXPECT_NE(d["reason"].get<std::string>().find("use the staging branch"), std::string::npos) << d;
  // Signing out needs the token too, and ends the session.
  EXPECT_EQ(c->Post("/ui/logout", web.headers(false), "", "application/json")->status, 403);
  auto out = c->Post("/ui/logout", web.headers(), "", "application/json");
  ASSERT_EQ(out->status, 200) << out->body;
  EXPECT_NE(out->get_header_value("Set-Cookie").find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(c->Get("/ui/session", web.headers(false))->status, 401);
}

TEST_F(Serve, ASignedInPersonCannotAnswerTheirOwnAgentsAsk) {
  const std::string agent = token("agent", "ci-bot", "alice");
  const std::string alice = token("approver", "alice", "alice");
  auto server = start();
  auto r = client(*server, agent)
               ->Post("/v1/check?async=1", call("git push origin main").dump(), "application/json");
  const std::string id = json::parse(r->body)["ask"]["id"];
  auto c = client(*server, "");
  const WebSession web = signIn(*c, alice);
  auto refused = c->Post("/v1/asks/" + id + "/answer", web.headers(), R"({"answer":"allow_once"})",
                         "application/json");
  EXPECT_EQ(refused->status, 403) << refused->body;
  EXPECT_NE(refused->body.find("both belong to alice"), std::string::npos) << refused->body;
  EXPECT_EQ(json::parse(c->Get("/v1/asks/" + id, web.headers(false))->body)["state"], "pending");
}

TEST_F(Serve, BehindAProxyThePublicOriginIsThisServices) {
  const std::string approver = token("approver", "alice");
  auto server = start({"--public-url", "https://guard.example.com/"});
  auto c = client(*server, "");
  auto in = c->Post("/ui/session", httplib::Headers{{"Origin", "https://guard.example.com"}},
                    json{{"token", approver}}.dump(), "application/json");
  ASSERT_EQ(in->status, 200) << in->body;
  const std::string set = in->get_header_value("Set-Cookie");
  httplib::Headers from_proxy{{"Cookie", set.substr(0, set.find(';'))},
                              {"X-CSRF-Token", json::parse(in->body)["csrf"]},
                              {"Origin", "https://GUARD.example.com"}};
  EXPECT_EQ(
      c->Post("/v1/approvals/revoke", from_proxy, R"({"tool":"x"})", "application/json")->status,
      400)
      << "past the origin check (the body is what is wrong)";
  from_proxy.erase("Origin");
  from_proxy.emplace("Origin", "https://guard.example.com.evil.test");
  EXPECT_EQ(
      c->Post("/v1/approvals/revoke", from_proxy, R"({"tool":"x"})", "application/json")->status,
      403);
}

TEST_F(Serve, OnlySoManyLongPollsWaitAtOnce) {
  const std::string approver = token("approver", "alice");
  // 8 handlers: 2 polls may wait, 1 of them per token.
  auto server = start({"--max-handlers", "8"});
  auto a = client(*server, approver);
  const std::string version = a->Get("/v1/asks?state=pending")->get_header_value("ETag");
  auto held = std::async(std::launch::async, [&] {
    return client(*server, approver)
        ->Get("/v1/asks?state=pending&wait=5", httplib::Headers{{"If-None-Match", version}})
        ->status;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto started = std::chrono::steady_clock::now();
  auto second =
      a->Get("/v1/asks?state=pending&wait=5", httplib::Headers{{"If-None-Match", version}});
  EXPECT_EQ(second->status, 304);
  EXPECT_EQ(second->get_header_value("Retry-After"), "2");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2))
      << "the token's second poll is answered at once";
  EXPECT_EQ(held.get(), 304);
}

TEST_F(Serve, TheLongPollWakesOnANewAskAndCarriesWhatThePageShows) {
  const std::string agent = token("agent", "ci-bot");
  const std::string approver = token("approver", "alice");
  auto server = start();
  auto a = client(*server, approver);
  auto first = a->Get("/v1/asks?state=pending");
  ASSERT_EQ(first->status, 200);
  const std::string version = first->get_header_value("ETag");
  ASSERT_FALSE(version.empty());
  // Nothing changes: 304 when the wait is over.
  auto idle = a->Get("/v1/asks?state=pending&wait=1", httplib::Headers{{"If-None-Match", version}});
  EXPECT_EQ(idle->status, 304);
  // A long poll held open; an agent asks; the poll answers with the new list.
  auto polled = std::async(std::launch::async, [&] {
    auto c = client(*server, approver);
    auto started = std::chrono::steady_clock::now();
    auto r = c->Get("/v1/asks?state=pending&wait=20", httplib::Headers{{"If-None-Match", version}});
    return std::make_pair(r ? r->body : "", std::chrono::steady_clock::now() - started);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::string work = (dir.path() / "work").string();
  std::filesystem::create_directories(work);
  json asked = {{"tool", "Bash"},
                {"args", {{"command", "git push origin main && cat ../notes.txt"}}},
                {"context", {{"cwd", work}}}};
  auto waiting = std::async(std::launch::async, [&] {
    return run({"check", "--server", server->url(), "--wait", "30"}, asked.dump(),
               {{"TOOLGUARD_TOKEN", agent}});
  });
  auto [body, took] = polled.get();
  EXPECT_LT(took, std::chrono::seconds(10)) << "the poll waits for a change, not its whole wait";
  const json asks = json::parse(body);
  ASSERT_EQ(asks.size(), 1u) << body;
  const json& detail = asks[0]["decision"]["detail"];
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  EXPECT_EQ(detail["machine"], host);
  EXPECT_TRUE(detail["peer"].get<std::string>().starts_with("127.0.0.1:")) << detail;
  ASSERT_EQ(detail["commands"].size(), 2u) << detail;
  EXPECT_EQ(detail["commands"][0]["text"], "git push origin main");
  EXPECT_EQ(detail["commands"][0]["findings"][0]["rule"], "shell-unknown-command") << detail;
  EXPECT_EQ(detail["commands"][1]["text"], "cat ../notes.txt");
  // Answered: the list changes again.
  auto r = a->Post("/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer",
                   R"({"answer":"allow_once"})", "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(json::parse(waiting.get().out)["verdict"], "allow");
  auto after = a->Get("/v1/asks?state=pending&wait=5",
                      httplib::Headers{{"If-None-Match", first->get_header_value("ETag")}});
  // Back to the empty list: the same version as the first, so 304 after the wait... unless
  // the version names the list's content, which it does: an empty list is the first's.
  EXPECT_EQ(after->status, 304);
  EXPECT_EQ(a->Get("/v1/asks?state=pending&wait=x")->status, 400);
}

TEST_F(Serve, ApprovalsAreListedAndRevokedAndTheAuditFilteredByAgent) {
  const std::string agent = token("agent", "ci-bot");
  const std::string other = token("agent", "night-job");
  const std::string approver = token("approver", "alice");
  auto server = start();
  auto a = client(*server, approver);
  auto waiting = std::async(std::launch::async, [&] {
    return run({"check", "--server", server->url(), "--wait", "30"},
               call("git push origin main").dump(), {{"TOOLGUARD_TOKEN", agent}});
  });
  json asks = pendingAsks(*a, 1);
  ASSERT_EQ(asks.size(), 1u);
  ASSERT_EQ(
      a->Post("/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer",
              R"({"answer":"always","binding":"pattern","scope":"project"})", "application/json")
          ->status,
      200);
  EXPECT_EQ(json::parse(waiting.get().out)["verdict"], "allow");
  run({"check", "--server", server->url()}, call("ls").dump(), {{"TOOLGUARD_TOKEN", other}});
  // The approvals: an approver may list them.
  auto listed = a->Get("/v1/approvals");
  ASSERT_EQ(listed->status, 200) << listed->body;
  const json approvals = json::parse(listed->body)["approvals"];
  ASSERT_EQ(approvals.size(), 1u) << listed->body;
  EXPECT_EQ(approvals[0]["value"], "git push origin *");
  EXPECT_NE(approvals[0]["description"].get<std::string>().find("git push origin *"),
            std::string::npos);
  // An agent may not list or revoke them.
  auto as_agent = client(*server, agent);
  EXPECT_EQ(as_agent->Get("/v1/approvals")->status, 403);
  EXPECT_EQ(as_agent->Post("/v1/approvals/revoke", approvals[0].dump(), "application/json")->status,
            403);
  // Revoked: gone from the list, and the next matching call asks again.
  auto revoked = a->Post("/v1/approvals/revoke", approvals[0].dump(), "application/json");
  ASSERT_EQ(revoked->status, 200) << revoked->body;
  EXPECT_EQ(json::parse(revoked->body)["removed"], 1);
  EXPECT_EQ(a->Post("/v1/approvals/revoke", approvals[0].dump(), "application/json")->status, 404);
  EXPECT_EQ(json::parse(a->Get("/v1/approvals")->body)["approvals"].size(), 0u);
  RunResult next = run({"check", "--server", server->url()}, call("git push origin dev").dump(),
                       {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(json::parse(next.out)["verdict"], "ask") << next.out;
  EXPECT_EQ(a->Post("/v1/approvals/revoke", R"({"tool":"Bash"})", "application/json")->status, 400);
  // The audit, read by an approver, filtered by agent.
  auto audit = a->Get("/v1/audit?agent=night-job");
  ASSERT_EQ(audit->status, 200) << audit->body;
  const json records = json::parse(audit->body);
  ASSERT_EQ(records.size(), 1u) << audit->body;
  EXPECT_EQ(records[0]["context"]["agent"], "night-job");
  bool revocation = false;
  for (const json& rec : json::parse(a->Get("/v1/audit")->body)) {
    revocation |= rec.value("event", "") == "approval-revoked" && rec.value("by", "") == "alice";
  }
  EXPECT_TRUE(revocation) << "a revocation is audited with who revoked";
}

// A webhook's receiving end on loopback: every POST to /notify, as received.
class WebhookReceiver {
 public:
  struct Notice {
    std::string timestamp;  ///< X-Toolguard-Timestamp
    std::string signature;  ///< X-Toolguard-Signature
    std::string body;
    json parsed;  ///< the body as JSON (discarded when it is not)
  };
  WebhookReceiver() {
    server_.Post("/notify", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex_);
      notices_.push_back(Notice{req.get_header_value("X-Toolguard-Timestamp"),
                                req.get_header_value("X-Toolguard-Signature"), req.body,
                                json::parse(req.body, nullptr, false)});
      res.status = 204;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    serving_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~WebhookReceiver() { stop(); }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/notify"; }
  /// Waits up to 5 s for a first notice, then stops receiving; what came.
  std::vector<Notice> awaitAndStop() {
    for (int i = 0; i < 200; ++i) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!notices_.empty()) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    stop();
    std::lock_guard<std::mutex> lock(mutex_);
    return notices_;
  }

 private:
  void stop() {
    if (!serving_.joinable()) return;
    server_.stop();
    serving_.join();
  }
  httplib::Server server_;
  int port_ = 0;
  std::thread serving_;
  std::mutex mutex_;
  std::vector<Notice> notices_;
};

TEST_F(Serve, AWebhookNeedsThePublicUrlAndSurvivesWhatAModelWrites) {
  const std::string agent = token("agent", "ci-bot");
  EXPECT_THROW(start({"--ask-webhook", "http://127.0.0.1:9/notify"}), std::runtime_error);
  WebhookReceiver hook;
  auto server = start({"--ask-webhook", hook.url(), "--public-url", "https://queue.example.com"});
  // Chat markup, a bidi override, then two-byte characters: the 200-byte cut
  // falls inside one of them (which once threw on the webhook's thread and
  // ended the service).
  std::string command = "git push origin x <!channel> \xe2\x80\xae";
  for (int i = 0; i < 100; ++i) command += "\xc3\xa9";
  RunResult r = run({"check", "--server", server->url(), "--wait", "1"}, call(command).dump(),
                    {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny");
  const std::vector<WebhookReceiver::Notice> notices = hook.awaitAndStop();
  EXPECT_EQ(client(*server, "")->Get("/healthz")->status, 200) << "the service lives on";
  ASSERT_EQ(notices.size(), 1u);
  const std::string summary = notices[0].parsed["summary"];
  EXPECT_TRUE(summary.starts_with("git push origin x &lt;!channel&gt; ")) << summary;
  EXPECT_TRUE(summary.ends_with("\xc3\xa9...")) << summary;
  EXPECT_EQ(notices[0].parsed["text"].get<std::string>().find("<!channel>"), std::string::npos);
  EXPECT_EQ(summary.find("\xe2\x80\xae"), std::string::npos) << "shown, not obeyed";
}

TEST_F(Serve, AWebhookIsToldOfEachNewAskWithALinkToIt) {
  const std::string agent = token("agent", "ci-bot");
  WebhookReceiver hook;
  auto server = start({"--ask-webhook", hook.url(), "--public-url", "https://queue.example.com/"});
  RunResult r = run({"check", "--server", server->url(), "--wait", "1"},
                    call("git push origin main").dump(), {{"TOOLGUARD_TOKEN", agent}});
  EXPECT_EQ(json::parse(r.out)["verdict"], "deny") << "nobody answered";
  const std::vector<WebhookReceiver::Notice> notices = hook.awaitAndStop();
  ASSERT_EQ(notices.size(), 1u);
  const json& n = notices[0].parsed;
  EXPECT_EQ(n["event"], "ask");
  EXPECT_EQ(n["agent"], "ci-bot");
  EXPECT_EQ(n["tool"], "Bash");
  EXPECT_EQ(n["summary"], "git push origin main");
  EXPECT_EQ(n["url"], "https://queue.example.com/#ask=" + n["id"].get<std::string>());
  EXPECT_NE(n["text"].get<std::string>().find(n["url"].get<std::string>()), std::string::npos);
}

// A receiver checks a signed notice with its own HMAC (here the openssl
// command): the signature covers the timestamp and the body as sent.
TEST_F(Serve, AWebhookNoticeIsSignedWithTheSecret) {
  const std::string agent = token("agent", "ci-bot");
  const std::string secret = "a-long-random-webhook-secret-0123456789";
  const std::string secret_file = (dir.path() / "webhook.secret").string();
  std::ofstream(secret_file) << secret << "\n";
  WebhookReceiver hook;
  const std::string url = hook.url();
  auto server = start({"--ask-webhook", url, "--public-url", "https://queue.example.com/",
                       "--ask-webhook-secret", secret_file});
  run({"check", "--server", server->url(), "--wait", "1"}, call("git push origin main").dump(),
      {{"TOOLGUARD_TOKEN", agent}});
  const std::vector<WebhookReceiver::Notice> received = hook.awaitAndStop();
  ASSERT_EQ(received.size(), 1u);
  const std::string& stamp = received[0].timestamp;
  const std::string& signature = received[0].signature;
  const std::string& body = received[0].body;
  const long long sent = std::stoll(stamp);
  const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  EXPECT_LE(std::llabs(now - sent), 60);
  RunResult mac =
      runBinary("/usr/bin/openssl", {"dgst", "-sha256", "-hmac", secret, "-r"}, stamp + "." + body);
  ASSERT_EQ(mac.exit_code, 0) << mac.err;
  EXPECT_EQ(signature, "sha256=" + mac.out.substr(0, 64));
  // The same body under another secret, or another time, does not match.
  RunResult other = runBinary("/usr/bin/openssl", {"dgst", "-sha256", "-hmac", secret + "x", "-r"},
                              stamp + "." + body);
  EXPECT_NE(signature, "sha256=" + other.out.substr(0, 64));

  // A short secret is refused at start.
  std::ofstream(secret_file) << "short\n";
  EXPECT_THROW(start({"--ask-webhook", url, "--public-url", "https://queue.example.com/",
                      "--ask-webhook-secret", secret_file}),
               std::runtime_error);
}

TEST_F(ServePostgres, ASessionOpenedOnOneInstanceWorksOnAnotherAndApprovalsAreRevoked) {
  const std::string agent = token("agent", "ci-bot");
  const std::string approver = token("approver", "alice");
  auto a = start();
  auto b = start();
  auto on_a = client(*a, "");
  const WebSession web = signIn(*on_a, approver);
  auto waiting = std::async(std::launch::async, [&] {
    return run({"check", "--server", a->url(), "--wait", "30"}, call("git push origin main").dump(),
               {{"TOOLGUARD_TOKEN", agent}});
  });
  auto on_b = client(*b, "");
  json asks;
  for (int i = 0; i < 400 && asks.empty(); ++i) {
    auto r = on_b->Get("/v1/asks?state=pending", web.headers(false));
    ASSERT_EQ(r->status, 200) << r->body;
    asks = json::parse(r->body);
    if (asks.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_EQ(asks.size(), 1u);
  auto answered = on_b->Post(
      "/v1/asks/" + asks[0]["id"].get<std::string>() + "/answer", web.headers(),
      R"({"answer":"always","binding":"pattern","scope":"project"})", "application/json");
  ASSERT_EQ(answered->status, 200) << answered->body;
  EXPECT_EQ(json::parse(waiting.get().out)["verdict"], "allow");
  const json approvals = json::parse(on_b->Get("/v1/approvals", web.headers(false))->body);
  ASSERT_EQ(approvals["approvals"].size(), 1u) << approvals;
  auto revoked = on_a->Post("/v1/approvals/revoke", web.headers(), approvals["approvals"][0].dump(),
                            "application/json");
  ASSERT_EQ(revoked->status, 200) << revoked->body;
  EXPECT_EQ(json::parse(on_b->Get("/v1/approvals", web.headers(false))->body)["approvals"].size(),
            0u);
  // Signed out on B: gone on A too.
  ASSERT_EQ(on_b->Post("/ui/logout", web.headers(), "", "application/json")->status, 200);
  EXPECT_EQ(on_a->Get("/ui/session", web.headers(false))->status, 401);
}

TEST_F(Serve, AProgramsAskMustCarryTextWhereThePageShowsText) {
  const std::string agent = token("agent", "embedded");
  auto server = start();
  json ask = json::parse(R"({"decision": {"verdict": "ask", "reason": 5},
      "offer": {"bindings": [{"binding": "exact", "value": "x"}], "scopes": []}, "wait": 1})");
  ask["call"] = call("git push origin main");
  auto r = client(*server, agent)->Post("/v1/asks", ask.dump(), "application/json");
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_NE(r->body.find("decision.reason"), std::string::npos) << r->body;
}

}  // namespace web_queue_test
}  // namespace toolguard::testing
