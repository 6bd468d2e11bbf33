// The in-process HTTP client of `check --server`: addresses, and what it
// makes of answers a server may send (a whole one, a chunked one, a broken
// one, none at all), each from a one-shot server on loopback.
#include "http/plain_http.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "support/piece_server.hpp"

namespace toolguard::detail {
namespace plain_http_test {

TEST(PlainHttp, ServiceAddressesAreRead) {
  auto a = parseServiceAddress("http://127.0.0.1:8787");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, "8787");
  EXPECT_EQ(a->prefix, "");
  a = parseServiceAddress("http://[::1]:9/guard/");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->host, "::1");
  EXPECT_EQ(a->port, "9");
  EXPECT_EQ(a->prefix, "/guard");
  a = parseServiceAddress("http://guard.internal");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->port, "80");
  a = parseServiceAddress("unix:/run/toolguard.sock");
  ASSERT_TRUE(a) << a.error();
  EXPECT_EQ(a->socket_path, "/run/toolguard.sock");
  for (const char* bad : {"", "ftp://h:1", "http://", "http://h:port", "unix:relative.sock",
                          "http://[::1", "https://h:1"}) {
    EXPECT_FALSE(parseServiceAddress(bad)) << bad;
  }
}

// A one-shot server on loopback answering `answer` ("<wait>": nothing).
class OneShotServer : public testing::PieceServer {
 public:
  explicit OneShotServer(const std::string& answer) : PieceServer({answer}) {}
  ServiceAddress address() const {
    ServiceAddress a;
    a.host = "127.0.0.1";
    a.port = std::to_string(port());
    return a;
  }
};

TEST(PlainHttp, ReadsWholeAndChunkedAnswers) {
  {
    OneShotServer server(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
        "15\r\n\r\n{\"verdict\":\"ok\"}trailing");
    auto r = plainHttpExchange(server.address(), "POST", "/v1/check", {{"X-A", "1"}}, "{}", 2000);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "{\"verdict\":\"ok\"");
    EXPECT_EQ(r->content_type, "application/json");
  }
  {
    OneShotServer server(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n2\r\nef\r\n0\r\n\r\n");
    auto r = plainHttpExchange(server.address(), "POST", "/x", {}, "", 2000);
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ(r->body, "abcdef");
  }
}

TEST(PlainHttp, BrokenOrMissingAnswersAreFailuresNeverResponses) {
  {
    OneShotServer server("SSH-2.0-OpenSSH\r\n\r\n");
    auto r = plainHttpExchange(server.address(), "POST", "/", {}, "", 2000);
    EXPECT_FALSE(r);
    EXPECT_NE(r.error().find("not HTTP"), std::string::npos) << r.error();
  }
  {
    OneShotServer server("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort");
    auto r = plainHttpExchange(server.address(), "POST", "/", {}, "", 2000);
    EXPECT_FALSE(r);
    EXPECT_NE(r.error().find("ended early"), std::string::npos) << r.error();
  }
  {
    OneShotServer server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    EXPECT_FALSE(plainHttpExchange(server.address(), "POST", "/", {}, "", 2000));
  }
  {
    OneShotServer server("<wait>");  // says nothing
    auto r = plainHttpExchange(server.address(), "POST", "/", {}, "", 200);
    EXPECT_FALSE(r);
    EXPECT_NE(r.error().find("no answer within 200 ms"), std::string::npos) << r.error();
  }
}

}  // namespace plain_http_test
}  // namespace toolguard::detail
