// `toolguard serve` against clients that hold connections open: idle ones,
// ones that trickle a header line now and then, many from one address, and
// requests whose framing headers come twice. Real serve processes, raw
// sockets from several loopback addresses (all of 127/8 is loopback).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <future>
#include <string_view>

#include "serve/serve_fixture.hpp"
#include "support/loopback_connect.hpp"

namespace toolguard::testing {
namespace connection_limits_test {

using nlohmann::json;

bool sendText(int fd, const std::string& text) {
  return ::send(fd, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size());
}

// Whether the server closed `fd` within `wait_ms` (reads and drops what it sent).
bool closedWithin(int fd, int wait_ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          until - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    char chunk[4096];
    if (recv(fd, chunk, sizeof chunk, 0) <= 0) return true;
  }
}

// Sends GET /healthz on `fd` and waits for the start of its answer, leaving
// the connection open (keep-alive): the service has surely accepted it then.
bool answeredWithin(int fd, int wait_ms) {
  if (!sendText(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) return false;
  pollfd p{fd, POLLIN, 0};
  if (poll(&p, 1, wait_ms) != 1) return false;
  char chunk[4096];
  const ssize_t got = recv(fd, chunk, sizeof chunk, 0);
  return got > 0 && std::string_view(chunk, static_cast<size_t>(got)).starts_with("HTTP/1.1 200");
}

// Sends a whole raw request and reads the answer until the server closes.
std::string exchange(int port, const std::string& request) {
  const int fd = connectFrom("127.0.0.1", port);
  if (fd < 0) return "";
  sendText(fd, request);
  std::string answer;
  char chunk[4096];
  pollfd p{fd, POLLIN, 0};
  while (poll(&p, 1, 5000) == 1) {
    const ssize_t got = recv(fd, chunk, sizeof chunk, 0);
    if (got <= 0) break;
    answer.append(chunk, static_cast<size_t>(got));
    if (answer.find("\r\n\r\n") != std::string::npos && answer.find("Connection: close") == 0) {
      break;
    }
  }
  close(fd);
  return answer;
}

// The serve process's thread count (/proc).
int threadsOf(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// Raises this process's descriptor limit to its hard limit (a thousand sockets).
void allowManyDescriptors() {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

TEST_F(Serve, AThousandIdleAndTricklingConnectionsHoldNoThreadAndChecksAreAnswered) {
  allowManyDescriptors();
  const std::string agent = token("agent", "bot");
  auto server = start({"--idle-timeout", "60", "--request-deadline", "60"});
  // 500 idle and 500 trickling connections from eight other addresses.
  std::vector<int> idle, trickling;
  for (int i = 0; i < 1000; ++i) {
    const int fd = connectFrom("127.0.0." + std::to_string(2 + i % 8), server->port());
    ASSERT_GE(fd, 0) << "connection " << i;
    (i % 2 == 0 ? idle : trickling).push_back(fd);
  }
  for (int fd : trickling) ASSERT_TRUE(sendText(fd, "POST /v1/check HTTP/1.1\r\n"));
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    for (int line = 0; !done; ++line) {
      for (int fd : trickling) sendText(fd, "X-Line-" + std::to_string(line) + ": a\r\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });
  // Every check from an address of its own is answered meanwhile, and the
  // thousand connections hold no thread of the service.
  std::vector<double> latencies_ms;
  for (int i = 0; i < 40; ++i) {
    auto c = client(*server, agent);
    const auto began = std::chrono::steady_clock::now();
    auto r = c->Post("/v1/check", call("ls").dump(), "application/json");
    latencies_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began)
            .count());
    ASSERT_TRUE(r) << "check " << i << ": " << httplib::to_string(r.error());
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(json::parse(r->body)["verdict"], "allow");
  }
  const int threads = threadsOf(server->pid());
  done = true;
  trickle.join();
  EXPECT_GT(threads, 0);
  EXPECT_LT(threads, 100) << "threads of the service with 1,000 connections open";
  std::sort(latencies_ms.begin(), latencies_ms.end());
  std::cout << "checks under 1,000 idle and trickling connections: median "
            << latencies_ms[latencies_ms.size() / 2] << " ms, slowest " << latencies_ms.back()
            << " ms; service threads " << threads << "\n";
  for (int fd : idle) close(fd);
  for (int fd : trickling) close(fd);
}

TEST_F(Serve, OneAddressHoldsOnlySoManyConnectionsAndOthersAreStillServed) {
  const std::string agent = token("agent", "bot");
  auto server = start({"--max-connections-per-address", "4"});
  std::vector<int> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(connectFrom("127.0.0.2", server->port()));
    ASSERT_GE(held.back(), 0);
    // Answered, so accepted and counted before the fifth arrives (the
    // kernel completes a connection before the service accepts it).
    ASSERT_TRUE(answeredWithin(held.back(), 5000)) << "held connection " << i;
  }
  // The fifth from that address is closed without an answer.
  const int fifth = connectFrom("127.0.0.2", server->port());
  ASSERT_GE(fifth, 0);  // the kernel accepts; the service closes it
  sendText(fifth, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(closedWithin(fifth, 5000));
  close(fifth);
  // Another address is served.
  auto r = client(*server, agent)->Post("/v1/check", call("ls").dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  for (int fd : held) close(fd);
}

TEST_F(Serve, ARequestThatTricklesPastTheDeadlineIsCutThoughNeverIdle) {
  auto server = start({"--request-deadline", "2", "--idle-timeout", "60"});
  const int slow = connectFrom("127.0.0.2", server->port());
  ASSERT_GE(slow, 0);
  ASSERT_TRUE(sendText(slow, "POST /v1/check HTTP/1.1\r\n"));
  // A header line every 300 ms: never idle for the idle timeout.
  bool cut = false;
  const auto began = std::chrono::steady_clock::now();
  for (int line = 0; line < 40 && !cut; ++line) {
    if (!sendText(slow, "X-Line-" + std::to_string(line) + ": a\r\n")) {
      cut = true;
      break;
    }
    cut = closedWithin(slow, 300);
  }
  EXPECT_TRUE(cut) << "still open after 12 s of trickling";
  EXPECT_GE(std::chrono::steady_clock::now() - began, std::chrono::milliseconds(1500))
      << "cut before its deadline";
  close(slow);
}

// A client without credentials is refused by the request's head: the
// service never reads (up to --max-body of) a body nobody may send it. A
// request with a token, and the sign-in (whose body is the token), are read.
TEST_F(Serve, ARequestWithoutCredentialsIsRefusedBeforeItsBodyIsRead) {
  const std::string agent = token("agent", "bot");
  const std::string admin = token("admin", "root");
  auto server = start();
  auto head = [](const std::string& path, const std::string& headers) {
    return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + headers +
           "Content-Length: 100000\r\n\r\n";
  };
  const std::vector<std::string> paths = {"/v1/check", "/v1/asks", "/v1/approvals/revoke",
                                          "/metrics"};
  const std::vector<std::string> no_credentials = {"", "Authorization: Basic Ym90OnNlY3JldA==\r\n",
                                                   "Authorization: Token " + agent + "\r\n",
                                                   "Authorization: Bearer\r\n"};
  size_t refused = 0;
  for (const std::string& path : paths) {
    for (const std::string& headers : no_credentials) {
      SCOPED_TRACE(path + " with '" + headers + "'");
      const std::string answer = answerToHeadAlone(server->port(), head(path, headers), 5000);
      EXPECT_EQ(answer.rfind("HTTP/1.1 401", 0), 0u) << answer;
      EXPECT_NE(answer.find("no token"), std::string::npos) << answer;
      ++refused;
    }
  }
  // With a bearer token (known or not) the body is waited for, as it is for
  // the sign-in, where the token is in the body.
  for (const std::string& headers :
       {"Authorization: Bearer " + agent + "\r\n", std::string("Authorization: Bearer tg_x\r\n")}) {
    EXPECT_EQ(answerToHeadAlone(server->port(), head("/v1/check", headers), 700), "") << headers;
  }
  EXPECT_EQ(answerToHeadAlone(server->port(), head("/ui/session", ""), 700), "");
  // Each refusal is audited, as a refusal after the body would be.
  auto audit = client(*server, admin)->Get("/v1/audit?verdict=deny");
  ASSERT_TRUE(audit);
  size_t audited = 0;
  for (const json& record : json::parse(audit->body)) {
    if (record.value("event", "") == "request-refused" && record.value("status", 0) == 401) {
      ++audited;
    }
  }
  EXPECT_EQ(audited, refused) << audit->body;
}

TEST_F(Serve, FramingHeadersThatComeTwiceAreRefused) {
  const std::string agent = token("agent", "bot");
  auto server = start();
  const std::string body = call("ls").dump();
  const std::string length = "Content-Length: " + std::to_string(body.size()) + "\r\n";
  const std::string bearer = "Authorization: Bearer " + agent + "\r\n";
  const std::string start_line = "POST /v1/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
  // As a client sends it: answered.
  EXPECT_EQ(exchange(server->port(), start_line + bearer + length + "\r\n" + body)
                .rfind("HTTP/1.1 200", 0),
            0u);
  const std::vector<std::pair<std::string, std::string>> doubled = {
      {"two Authorization headers", bearer + "Authorization: Bearer tg_other\r\n" + length},
      {"two Content-Length headers", bearer + length + length},
      {"Transfer-Encoding beside Content-Length",
       bearer + length + "Transfer-Encoding: chunked\r\n"},
      {"two Host headers", bearer + length + "Host: y\r\n"},
  };
  for (const auto& [what, headers] : doubled) {
    const std::string answer = exchange(server->port(), start_line + headers + "\r\n" + body);
    EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << what << ":\n" << answer;
  }
}

TEST_F(Serve, PastItsHandlersAndTheirQueueTheServiceAnswers503AtOnce) {
  const std::string agent = token("agent", "bot");
  // 4 handlers and a queue of 16: twenty asks that wait for a person fill both.
  auto server = start({"--max-handlers", "4", "--max-pending-asks", "100"});
  std::vector<std::future<int>> waiting;
  for (int i = 0; i < 20; ++i) {
    waiting.push_back(std::async(std::launch::async, [&, i] {
      auto c = client(*server, agent);
      auto r = c->Post("/v1/check?wait=5",
                       call("curl -X POST https://example.com/" + std::to_string(i)).dump(),
                       "application/json");
      return r ? r->status : -1;
    }));
  }
  // Once they are all in, a request past the queue is turned away at once.
  bool refused = false;
  for (int attempt = 0; attempt < 100 && !refused; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // (A check that may wait goes to a handler; /healthz is answered at once.)
    auto r =
        client(*server, agent)->Post("/v1/check?wait=1", call("ls").dump(), "application/json");
    if (r && r->status == 503) {
      refused = true;
      EXPECT_EQ(r->get_header_value("Retry-After"), "1");
    }
  }
  // On a loaded machine a poll may take a place before the last of the
  // twenty arrives: then that one is the request turned away.
  int turned_away = 0;
  for (auto& w : waiting) {
    const int status = w.get();
    EXPECT_TRUE(status == 200 || status == 503) << status;
    turned_away += status == 503;
  }
  EXPECT_TRUE(refused || turned_away > 0) << "no 503 with 4 handlers and 16 queued requests busy";
  // And once they are answered, it serves again.
  auto r = client(*server, agent)->Post("/v1/check?wait=1", call("ls").dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

}  // namespace connection_limits_test
}  // namespace toolguard::testing
