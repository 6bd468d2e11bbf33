// The streaming HTTP client of `toolguard mcp --url`: URLs, and the body of
// answers read as they arrive (by length, chunked, until the server closes),
// whatever the pieces the bytes come in; broken answers fail; abort() ends
// a read another thread is waiting in.
#include "http/http_stream.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <thread>

#include "support/piece_server.hpp"

namespace toolguard::detail {
namespace http_stream_test {

TEST(HttpStream, UrlsAreRead) {
  auto url = parseHttpUrl("http://127.0.0.1:8080/mcp?x=1");
  ASSERT_TRUE(url) << url.error();
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, "8080");
  EXPECT_EQ(url->path, "/mcp?x=1");
  EXPECT_EQ(url->authority, "127.0.0.1:8080");
  url = parseHttpUrl("http://[::1]/");
  ASSERT_TRUE(url) << url.error();
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, "80");
  url = parseHttpUrl("http://localhost");
  ASSERT_TRUE(url) << url.error();
  EXPECT_EQ(url->path, "/");
  EXPECT_FALSE(url->tls);
  url = parseHttpUrl("https://mcp.example.com/v1/mcp");
  ASSERT_TRUE(url) << url.error();
  EXPECT_TRUE(url->tls);
  EXPECT_EQ(url->port, "443");
  EXPECT_EQ(url->authority, "mcp.example.com");
  for (const char* bad :
       {"", "https://", "ftp://h/", "http://", "http://h:0/", "http://h:70000/", "http://h:x/",
        "http://u:p@h/", "http://h/a b", "http://h/#frag", "http://[::1/"}) {
    EXPECT_FALSE(parseHttpUrl(bad)) << bad;
  }
}

HttpUrl urlOf(const testing::PieceServer& server) {
  return *parseHttpUrl("http://127.0.0.1:" + std::to_string(server.port()) + "/mcp");
}

// The whole body, or the failure.
std::string bodyOf(HttpResponseStream& stream) {
  std::string body;
  for (;;) {
    const HttpResponseStream::Read read = stream.read(body, 5000);
    if (read == HttpResponseStream::Read::End) return body;
    if (read != HttpResponseStream::Read::Data) return "<failed: " + stream.error() + ">";
  }
}

// `answer` cut at every pair of places gives the same body.
void expectBodyWhateverThePieces(const std::string& answer, const std::string& body) {
  for (size_t cut = 1; cut < answer.size(); cut += 7) {
    for (size_t second = cut + 1; second < answer.size(); second += 11) {
      testing::PieceServer server(
          {answer.substr(0, cut), answer.substr(cut, second - cut), answer.substr(second)});
      HttpRequest request{"POST", {{"Accept", "text/event-stream"}}, "{}", false};
      auto stream = HttpResponseStream::open(urlOf(server), request, 5000);
      ASSERT_TRUE(stream) << stream.error() << " cut at " << cut << "," << second;
      EXPECT_EQ((*stream)->status(), 200);
      EXPECT_EQ(bodyOf(**stream), body) << "cut at " << cut << "," << second;
    }
  }
}

TEST(HttpStream, BodiesByLengthChunkedAndUntilCloseWhateverThePieces) {
  expectBodyWhateverThePieces(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
      "{\"a\":1}");
  expectBodyWhateverThePieces(
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
      "6;ext=1\r\ndata: \r\n0b\r\n{\"a\":1}\n\n..\r\n0\r\n\r\n",
      "data: {\"a\":1}\n\n..");
  expectBodyWhateverThePieces(
      "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n", "data: x\n\n");
}

TEST(HttpStream, TheHeadAndTheRequestAreAsSent) {
  testing::PieceServer server(
      {"HTTP/1.1 202 Accepted\r\nMcp-Session-Id: abc\r\nContent-Length: 0\r\n\r\n"});
  HttpRequest request{"POST", {{"Mcp-Session-Id", "s-1"}}, "{\"x\":1}", false};
  auto stream = HttpResponseStream::open(urlOf(server), request, 5000);
  ASSERT_TRUE(stream) << stream.error();
  EXPECT_EQ((*stream)->status(), 202);
  EXPECT_EQ((*stream)->header("mcp-session-id"), "abc");
  EXPECT_EQ(bodyOf(**stream), "");
  stream->reset();
  EXPECT_NE(server.received.find("POST /mcp HTTP/1.1\r\n"), std::string::npos);
  EXPECT_NE(server.received.find("Mcp-Session-Id: s-1\r\n"), std::string::npos);
  EXPECT_NE(server.received.find("Content-Length: 7\r\n"), std::string::npos);
}

TEST(HttpStream, BrokenAnswersFail) {
  const std::vector<std::string> broken = {
      "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
  };
  for (const std::string& answer : broken) {
    testing::PieceServer server({answer});
    auto stream = HttpResponseStream::open(urlOf(server), HttpRequest{}, 5000);
    ASSERT_TRUE(stream) << stream.error();
    EXPECT_TRUE(bodyOf(**stream).starts_with("<failed")) << answer;
  }
  const std::vector<std::string> bad_heads = {
      "SMTP ready\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
      // Where the body ends would depend on which of the two is believed.
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nX: " + std::string(70000, 'x') + "\r\n\r\n"};
  for (const std::string& answer : bad_heads) {
    testing::PieceServer server({answer});
    EXPECT_FALSE(HttpResponseStream::open(urlOf(server), HttpRequest{}, 5000))
        << answer.substr(0, 60);
  }
  // A header the caller gives with a line break is refused, never sent.
  testing::PieceServer server({""});
  auto stream = HttpResponseStream::connect(urlOf(server), 5000);
  ASSERT_TRUE(stream);
  HttpRequest smuggled{"GET", {{"X-Key", "v\r\nX-Evil: 1"}}, "", false};
  EXPECT_FALSE((*stream)->send(urlOf(server), smuggled, 5000));
}

// Answers the requests of one connection in turn, each with the next of
// `answers`, reading each request whole (head and Content-Length body).
class KeptConnectionServer {
 public:
  explicit KeptConnectionServer(std::vector<std::string> answers) {
    fd_ = testing::loopbackListener(port_);
    thread_ = std::thread([this, answers = std::move(answers)] {
      const int c = accept(fd_, nullptr, nullptr);
      std::string in;
      char buffer[4096];
      for (const std::string& answer : answers) {
        size_t end;
        while ((end = in.find("\r\n\r\n")) == std::string::npos) {
          const ssize_t n = recv(c, buffer, sizeof buffer, 0);
          if (n <= 0) break;
          in.append(buffer, static_cast<size_t>(n));
        }
        if (end == std::string::npos) break;
        const size_t at = in.find("Content-Length: ");
        const size_t body =
            at != std::string::npos && at < end ? std::stoul(in.substr(at + 16)) : 0;
        while (in.size() < end + 4 + body) {
          const ssize_t n = recv(c, buffer, sizeof buffer, 0);
          if (n <= 0) break;
          in.append(buffer, static_cast<size_t>(n));
        }
        requests.push_back(in.substr(0, end + 4 + body));
        in.erase(0, end + 4 + body);
        send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
      }
      shutdown(c, SHUT_WR);
      while (recv(c, buffer, sizeof buffer, 0) > 0) {
      }
      close(c);
    });
  }
  ~KeptConnectionServer() {
    thread_.join();
    close(fd_);
  }
  HttpUrl url() const {
    return *parseHttpUrl("http://127.0.0.1:" + std::to_string(port_) + "/mcp");
  }
  std::vector<std::string> requests;

 private:
  int fd_;
  int port_;
  std::thread thread_;
};

// A connection whose answer was read to its framed end (a chunked one with
// trailer fields included) carries the next request; one the server ends,
// or whose answer runs to the close, does not.
TEST(HttpStream, AConnectionIsKeptOnlyWhenItsAnswerEndedByItsFraming) {
  KeptConnectionServer server(
      {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\nX-T: 1\r\n\r\n",
       "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
       "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"});
  HttpRequest request{"POST", {}, "{\"n\":1}", true};
  auto stream = HttpResponseStream::open(server.url(), request, 5000);
  ASSERT_TRUE(stream) << stream.error();
  EXPECT_EQ(bodyOf(**stream), "ab");
  ASSERT_TRUE((*stream)->reusable());
  for (const char* body : {"{\"n\":2}", "{\"n\":3}"}) {
    (*stream)->forgetAnswer();
    request.body = body;
    ASSERT_TRUE((*stream)->send(server.url(), request, 5000));
    ASSERT_TRUE((*stream)->readHead(5000));
    bodyOf(**stream);
  }
  EXPECT_EQ((*stream)->status(), 200);
  EXPECT_FALSE((*stream)->reusable()) << "the server said Connection: close";
  stream->reset();
  ASSERT_EQ(server.requests.size(), 3u);
  EXPECT_EQ(server.requests[0].find("Connection: close"), std::string::npos);
  EXPECT_NE(server.requests[2].find("{\"n\":3}"), std::string::npos);

  testing::PieceServer until_close({"HTTP/1.1 200 OK\r\n\r\nbody"});
  auto read_to_close = HttpResponseStream::open(urlOf(until_close), request, 5000);
  ASSERT_TRUE(read_to_close) << read_to_close.error();
  EXPECT_EQ(bodyOf(**read_to_close), "body");
  EXPECT_FALSE((*read_to_close)->reusable());
}

TEST(HttpStream, AbortEndsAReadAnotherThreadWaitsIn) {
  testing::PieceServer server(
      {"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n", "<wait>"});
  auto stream = HttpResponseStream::open(urlOf(server), HttpRequest{}, 5000);
  ASSERT_TRUE(stream) << stream.error();
  HttpResponseStream& open = **stream;
  std::thread cutter([&open] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    open.abort();
  });
  // Without the abort the read would end when the server closes (End).
  std::string body;
  EXPECT_EQ(open.read(body, -1), HttpResponseStream::Read::Failed);
  EXPECT_EQ(open.error(), "the exchange was cut off");
  cutter.join();
}

}  // namespace http_stream_test
}  // namespace toolguard::detail

namespace toolguard::detail {
namespace http_stream_test {

// The proxy reads an answer on its own thread only when all of it has
// arrived (wholeHttpAnswer): a whole answer says its media type; no
// proper prefix of it, and nothing the stream could only read by waiting
// (framed by the close, an interim 1xx, a chunk extension or trailer), is
// taken for whole.
TEST(HttpStream, AWholeAnswerIsKnownByItsFramingAndNoPrefixIs) {
  const std::vector<std::pair<std::string, std::string>> whole = {
      {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
       "application/json"},
      {"HTTP/1.1 200 OK\r\ncontent-type: Application/JSON; charset=utf-8\r\ncontent-length:  "
       "2\r\n\r\n{}",
       "application/json"},
      {"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
       "6\r\ndata: \r\n0b\r\n{\"a\":1}\n\n..\r\n0\r\n\r\n",
       "text/event-stream"},
      {"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", ""},
      // The same length twice is one length (as the stream reads it).
      {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", ""},
  };
  for (const auto& [answer, type] : whole) {
    EXPECT_EQ(wholeHttpAnswer(answer), std::optional<std::string>(type)) << answer;
    for (size_t cut = 0; cut < answer.size(); ++cut) {
      EXPECT_EQ(wholeHttpAnswer(answer.substr(0, cut)), std::nullopt)
          << answer << " cut at " << cut;
    }
  }
  for (const std::string& waits : {
           std::string("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n"),
           std::string("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
           std::string(
               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;x=y\r\na\r\n0\r\n\r\n"),
           std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n\r\n"),
           std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n0\r\n\r\n"),
           std::string("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxy"),
           std::string("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nx"),
           std::string("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "0\r\n\r\n"),
           std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
           std::string("SMTP ready\r\n\r\n"),
           std::string("HTTP/1.1 200 OK\r\nno colon\r\nContent-Length: 0\r\n\r\n"),
       }) {
    EXPECT_EQ(wholeHttpAnswer(waits), std::nullopt) << waits;
  }
}

void expectArrivedAnswerSeen(const std::string& body);

// On a connection: once the whole answer is there the stream says so
// without taking any of it, and then reads it as it would have.
TEST(HttpStream, AnArrivedAnswerIsSeenWithoutBeingTaken) {
  // Small, and larger than the first look (8 KiB).
  for (const std::string& body :
       {std::string("{\"a\":1}"), "{\"a\":\"" + std::string(20000, 'x') + "\"}"}) {
    expectArrivedAnswerSeen(body);
  }
}

void expectArrivedAnswerSeen(const std::string& body) {
  const std::string answer =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  testing::PieceServer server({answer});
  const HttpUrl url = urlOf(server);
  auto stream = HttpResponseStream::connect(url, 5000);
  ASSERT_TRUE(stream) << stream.error();
  ASSERT_TRUE((*stream)->send(url, HttpRequest{"POST", {}, "{}", true}, 5000));
  std::optional<std::string> type;
  for (int tries = 0; tries < 500 && !type; ++tries) {
    type = (*stream)->arrivedAnswerType();
    if (!type) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(type, std::optional<std::string>("application/json"));
  EXPECT_EQ((*stream)->arrivedAnswerType(), type);  // looked at, not taken
  ASSERT_TRUE((*stream)->readHead(5000));
  EXPECT_EQ(bodyOf(**stream), body);
}

}  // namespace http_stream_test
}  // namespace toolguard::detail
