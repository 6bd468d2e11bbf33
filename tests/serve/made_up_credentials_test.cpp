// `toolguard serve` against a flood of made-up bearer tokens and session
// cookies: past the store reads it allows for unknown ones (ten a second),
// such a request is refused from its head (its body is never read, the
// store never asked), while real tokens and sessions, and a token made
// during the flood, are still served. Real serve processes and sockets.
#include <atomic>
#include <future>
#include <thread>

#include "serve/serve_fixture.hpp"
#include "support/loopback_connect.hpp"

namespace toolguard::testing {
namespace made_up_credentials_test {

using nlohmann::json;

// A request's head announcing a body of 100 kB that never comes.
std::string headAlone(const std::string& method, const std::string& path,
                      const std::string& credential_header) {
  return method + " " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
         credential_header + "\r\nContent-Length: 100000\r\n\r\n";
}

// Sends `requests` requests with made-up credentials (a new one each, made
// by `header_of`) on one keep-alive connection; how many were refused 401.
size_t flood(const ServeProcess& server, size_t requests,
             const std::function<httplib::Headers(size_t)>& header_of) {
  auto c = Serve::client(server, "");
  size_t refused = 0;
  for (size_t i = 0; i < requests; ++i) {
    auto r = c->Post("/v1/check", header_of(i), Serve::call("ls").dump(), "application/json");
    if (r && r->status == 401) ++refused;
  }
  return refused;
}

httplib::Headers madeUpToken(size_t i) {
  return {{"Authorization", "Bearer tg_madeup" + std::to_string(i)}};
}

httplib::Headers madeUpCookie(size_t i) {
  return {{"Cookie", "toolguard_session=tg_madeup" + std::to_string(i)}};
}

// Whether a head with `credential_header` is answered 401 with `message`
// before its body: tried after a fresh burst of the flood, up to three
// times (a stall of this machine between the burst and the head lets the
// reads refill).
bool refusedFromHead(const ServeProcess& server, const std::string& credential_header,
                     const std::function<httplib::Headers(size_t)>& header_of,
                     const std::string& message, std::string& last_answer) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    flood(server, 40, header_of);
    last_answer =
        answerToHeadAlone(server.port(), headAlone("POST", "/v1/check", credential_header), 1500);
    if (last_answer.rfind("HTTP/1.1 401", 0) == 0 &&
        last_answer.find(message) != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST_F(Serve, AFloodOfMadeUpTokensIsRefusedFromTheHeadAndRealTokensStillServed) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  // Each made-up token is refused; past the reads for unknown ones, from
  // its head (a body announced and never sent gets its answer at once).
  EXPECT_EQ(flood(*server, 20, madeUpToken), 20u);
  std::string answer;
  EXPECT_TRUE(refusedFromHead(*server, "Authorization: Bearer tg_neverseen", madeUpToken,
                              "unknown token", answer))
      << answer;
  // A known token's body is waited for, and its check answered.
  flood(*server, 40, madeUpToken);
  EXPECT_EQ(
      answerToHeadAlone(server->port(),
                        headAlone("POST", "/v1/check", "Authorization: Bearer " + agent), 700),
      "");
  auto checked = client(*server, agent)->Post("/v1/check", call("ls").dump(), "application/json");
  ASSERT_TRUE(checked);
  EXPECT_EQ(checked->status, 200) << checked->body;

  // A token made while the flood goes on is served within about a second
  // (the snapshot of tokens is read again when a second old).
  std::atomic<bool> flooding{true};
  auto background = std::async(std::launch::async, [&] {
    size_t refused = 0;
    auto c = client(*server, "");
    for (size_t i = 0; flooding; ++i) {
      auto r = c->Post("/v1/check", madeUpToken(100000 + i), call("ls").dump(), "application/json");
      if (r && r->status == 401) ++refused;
    }
    return refused;
  });
  const std::string newcomer = token("agent", "newcomer");
  int status = 0;
  for (int attempt = 0; attempt < 30 && status != 200; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto r = client(*server, newcomer)->Post("/v1/check", call("ls").dump(), "application/json");
    status = r ? r->status : 0;
  }
  flooding = false;
  EXPECT_GT(background.get(), 10u) << "the flood went on while the new token was tried";
  EXPECT_EQ(status, 200) << "a token made during the flood";

  // A revoked token, once the snapshot knows it so, is refused from its head.
  const std::string revoked = token("agent", "gone");
  ASSERT_EQ(run({"serve", "token", "revoke", "gone", "--store", store}).exit_code, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  client(*server, agent)->Post("/v1/check", call("ls").dump(), "application/json");  // reads it
  answer = answerToHeadAlone(
      server->port(), headAlone("POST", "/v1/check", "Authorization: Bearer " + revoked), 1500);
  EXPECT_EQ(answer.rfind("HTTP/1.1 401", 0), 0u) << answer;
  EXPECT_NE(answer.find("revoked"), std::string::npos) << answer;
}

TEST_F(Serve, AFloodOfMadeUpCookiesIsRefusedFromTheHeadAndRealSessionsStillServed) {
  const std::string approver = token("approver", "alice");
  auto server = start();
  auto c = client(*server, "");
  auto signed_in = c->Post("/ui/session", json{{"token", approver}}.dump(), "application/json");
  ASSERT_TRUE(signed_in);
  ASSERT_EQ(signed_in->status, 200) << signed_in->body;
  const std::string set = signed_in->get_header_value("Set-Cookie");
  const std::string cookie = set.substr(0, set.find(';'));

  EXPECT_EQ(flood(*server, 20, madeUpCookie), 20u);
  std::string answer;
  EXPECT_TRUE(refusedFromHead(*server, "Cookie: toolguard_session=tg_neverseen", madeUpCookie,
                              "not signed in", answer))
      << answer;
  // The session signed in here is read from the store and served, flood or not.
  flood(*server, 40, madeUpCookie);
  auto me = c->Get("/ui/session", httplib::Headers{{"Cookie", cookie}});
  ASSERT_TRUE(me);
  EXPECT_EQ(me->status, 200) << me->body;
  EXPECT_EQ(json::parse(me->body)["name"], "alice");
  flood(*server, 40, madeUpCookie);
  auto asks = c->Get("/v1/asks", httplib::Headers{{"Cookie", cookie}});
  ASSERT_TRUE(asks);
  EXPECT_EQ(asks->status, 200) << asks->body;
}

}  // namespace made_up_credentials_test
}  // namespace toolguard::testing
