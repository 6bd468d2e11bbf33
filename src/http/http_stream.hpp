#pragma once
// Internal: one HTTP/1.1 request over plain TCP whose response is read as it
// arrives: the status and headers first, then the body piece by piece
// (Content-Length, chunked, or until the server closes). What the MCP proxy
// uses for a Streamable HTTP server, whose answers may be event streams
// that stay open for minutes.

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "response_head.hpp"
#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// An http:// or https:// URL taken apart.
struct HttpUrl {
  bool tls = false;       ///< https://: through the TLS helper (tls_tunnel.hpp)
  std::string host;       ///< a name or a numeric address (IPv6 without brackets)
  std::string port;       ///< "80" when the URL names none
  std::string path;       ///< the path and query, "/" when the URL names none
  std::string authority;  ///< what the Host header says (host[:port] as written)
};

/// Reads "http[s]://HOST[:PORT][/PATH]"; fails, saying why, for anything
/// else. No user or fragment part.
Expected<HttpUrl> parseHttpUrl(std::string_view url);

/// One request: its method, its headers (besides Host, Content-Length and
/// Connection, which the client writes) and its body.
struct HttpRequest {
  std::string method = "GET";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Ask to keep the connection for another request (else Connection: close).
  bool keep_alive = false;
};

/// When `bytes` begin with a whole HTTP/1.x answer (not an interim 1xx):
/// its head and a body framed by Content-Length or chunked to its last
/// chunk with no trailer, the media type its Content-Type names
/// (lowercase, no parameters; "" when it names none); else nullopt.
std::optional<std::string> wholeHttpAnswer(std::string_view bytes);

/// A response being read. Thread-safe only for abort(): one thread reads.
class HttpResponseStream {
 public:
  /// Connects to `url`'s host within `timeout_ms` (https: through the TLS
  /// helper, its certificate verified); fails, saying why.
  static Expected<std::unique_ptr<HttpResponseStream>> connect(const HttpUrl& url, long timeout_ms);
  /// Sends `request` to `url`'s path within `timeout_ms`. Fails, saying
  /// why, for a header name or value with a line break, or a write error.
  Expected<bool> send(const HttpUrl& url, const HttpRequest& request, long timeout_ms);
  /// Reads the status line and headers, waiting at most `timeout_ms` (-1:
  /// as long as it takes; abort() ends the wait). Fails, saying why, for an
  /// answer that is not HTTP/1.x, headers over 64 KiB, two different
  /// Content-Length headers, a transfer encoding other than chunked.
  Expected<bool> readHead(long timeout_ms);
  /// connect, send and readHead, all within `timeout_ms`.
  static Expected<std::unique_ptr<HttpResponseStream>> open(const HttpUrl& url,
                                                            const HttpRequest& request,
                                                            long timeout_ms);
  ~HttpResponseStream();
  HttpResponseStream(const HttpResponseStream&) = delete;
  HttpResponseStream& operator=(const HttpResponseStream&) = delete;

  int status() const { return head_.status; }
  /// The value of the header `lowercase_name` ("" when absent; the first
  /// when repeated).
  std::string header(std::string_view lowercase_name) const;
  /// The media type of Content-Type, lowercase, without parameters.
  std::string mediaType() const;

  enum class Read {
    Data,      ///< bytes were appended to `out`
    End,       ///< the body is complete
    TimedOut,  ///< nothing arrived within the time given
    Failed     ///< the connection broke or the body is not well formed (error() says)
  };
  /// Appends what arrives of the body to `out`, waiting at most
  /// `timeout_ms` (-1: as long as it takes).
  Read read(std::string& out, long timeout_ms);
  const std::string& error() const { return error_; }

  /// From any thread: makes a pending and every later read() fail at once.
  void abort();

  /// Whether another request may go on this connection: the answer was read
  /// to its framed end (not to the close), nothing is left over, the server
  /// did not say Connection: close, and it has not closed since (nothing to
  /// read on an idle connection).
  bool reusable() const;
  /// Forgets the answer read, for the next send() on this connection.
  void forgetAnswer();
  /// Whether a send() of at most 4 KiB would not wait: nothing sent before
  /// is still queued in the connection (its socket's send buffer, at least
  /// 4 KiB, is empty).
  bool sendsAtOnce() const;
  /// The connection's descriptor, for a caller's poll(); the reading stays
  /// this stream's.
  int fd() const { return fd_; }
  /// When a whole answer (its head and its framed body: by length or
  /// chunked to the last chunk) has already arrived, so that reading it
  /// waits for nothing: its media type (wholeHttpAnswer). Looks without
  /// taking (MSG_PEEK), at most 64 KiB; an answer framed by the
  /// connection's close is never whole here.
  std::optional<std::string> arrivedAnswerType() const;

 private:
  HttpResponseStream() = default;
  Expected<bool> readOneHead(long timeout_ms);  // one status line and its headers
  bool fill(long timeout_ms, Read& why);        // reads more bytes into buffer_
  Read readChunked(std::string& out, long timeout_ms);
  void readTrailer(long timeout_ms);  // after the last chunk

  int fd_ = -1;
  pid_t tunnel_pid_ = -1;  // https: the TLS helper at fd_'s other end
  std::atomic<bool> aborted_{false};
  bool head_request_ = false;
  ResponseHead head_;   // the status and headers of the answer being read
  std::string buffer_;  // received, not yet handed out
  enum class Framing { Length, Chunked, UntilClose } framing_ = Framing::UntilClose;
  size_t remaining_ = 0;     // Length: body bytes still to come; Chunked: of the current chunk
  bool chunk_open_ = false;  // Chunked: inside a chunk's data
  bool finished_ = false;
  std::string error_;
};

}  // namespace toolguard::detail
