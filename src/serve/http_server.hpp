#pragma once
// Internal: the HTTP/1.1 server under `toolguard serve` (GNU libmicrohttpd
// with epoll and a few event threads: an idle or slow connection costs no
// thread), on TCP (optionally TLS, with client certificates) and on a Unix
// socket. A request whose headers and body have arrived runs on a worker
// thread (it may wait for a person) while its connection is suspended. It
// only moves requests and responses, and keeps the limits against a client
// that misbehaves; what requests mean is the service's (serve_service.hpp).

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::serve {

/// One request as the handler sees it.
struct HttpRequest {
  std::string method;                          ///< "GET", "POST", ...
  std::string path;                            ///< without the query
  std::map<std::string, std::string> query;    ///< decoded query arguments
  std::map<std::string, std::string> headers;  ///< names in lower case
  std::string body;
  std::string peer;  ///< "127.0.0.1:53122", or "unix" for the Unix socket
  /// The common name of the client certificate the TLS handshake verified
  /// against the configured client CA; "" without one.
  std::string client_certificate;
  /// True once the client has closed its connection (or it broke): a handler
  /// that waits long (an ask, a long poll) asks it now and then and stops
  /// waiting for nobody. Never empty when the server made the request.
  std::function<bool()> client_gone = [] { return false; };
  /// What an answer tried on the event thread (HttpAtOnce) learned before it
  /// handed the request over, for the handler thread (the caller it
  /// authenticated); empty otherwise.
  std::shared_ptr<const void> carried;

  /// A header's value, or "" when absent (`name` in lower case).
  std::string header(const std::string& name) const;
  /// A query argument's value, or "" when absent.
  std::string arg(const std::string& name) const;
  /// A query argument that is a whole number of at most nine digits; 0 when
  /// absent, nullopt when it is something else.
  std::optional<long> wholeNumberArg(const std::string& name) const;
};

/// The body of an answer that is written while it is sent (an event
/// stream): the handler returns at once, and whoever holds the stream
/// pushes bytes into it, from any thread, until it closes it. While nothing
/// is queued the connection waits without a thread.
class ResponseStream {
 public:
  /// `max_queued_bytes`: a client that does not read while this much waits
  /// is cut off.
  explicit ResponseStream(size_t max_queued_bytes = size_t{8} << 20)
      : max_queued_(max_queued_bytes) {}
  ResponseStream(const ResponseStream&) = delete;
  ResponseStream& operator=(const ResponseStream&) = delete;

  /// Queues bytes to send; false when the stream is closed or its client
  /// gone (or cut off for not reading).
  bool push(std::string_view bytes);
  /// Ends the answer once what is queued has been sent.
  void close();
  /// True until close() or the client is gone.
  bool open() const;
  /// Called once, from the server's thread, when the connection ended
  /// before close(): the client went away. Set before the stream is returned.
  std::function<void()> on_gone;

  struct Internal;  ///< the server's side (http_server.cpp)

 private:
  friend struct Internal;
  mutable std::mutex mutex_;
  std::string queued_;
  size_t max_queued_;
  void* connection_ = nullptr;  // the server's connection while it sends the stream
  bool suspended_ = false;      // its connection waits for bytes
  bool closed_ = false;
  bool gone_ = false;
};

class LaterAnswer;

/// What the handler answers.
struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  /// When set, the body is this stream (chunked), not `body`.
  std::shared_ptr<ResponseStream> stream;
  /// When set, the whole answer is given later through it (the rest of this
  /// response is ignored): the connection waits without a thread.
  std::shared_ptr<LaterAnswer> later;
};

/// An answer that is known later, on another thread (the audit's group
/// commit): the handler returns it at once and whoever holds it calls
/// complete() once. The server's stop() waits for every one it was given,
/// so it must be completed.
class LaterAnswer {
 public:
  /// Sends `response` (its `later` and `stream` are not followed). Any
  /// thread; only the first call counts.
  void complete(HttpResponse response);

  struct Internal;  ///< the server's side (http_server.cpp)

 private:
  friend struct Internal;
  std::mutex mutex_;
  std::unique_ptr<HttpResponse> early_;        // completed before the server took it
  std::function<void(HttpResponse)> deliver_;  // set by the server
  bool completed_ = false;
};

/// Answers one request; may block (a long poll). Exceptions become 500.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

/// Answers a request on the event thread that read it, when that needs no
/// wait (for a person, the network, a database's answer): no hand-over to a
/// handler thread. nullopt hands the request (with what it put in
/// `carried`) to a handler thread. Must not block.
using HttpAtOnce = std::function<std::optional<HttpResponse>(HttpRequest&)>;

/// Answers a request from its head alone, before its body is read (the
/// request's body is empty), when the head settles the answer: a request
/// without credentials to a path that needs them is refused without the
/// server reading (up to max_body_bytes of) what it sends. The connection is
/// closed after such an answer. nullopt reads the body. Must not block.
using HttpFromHead = std::function<std::optional<HttpResponse>(HttpRequest&)>;

/// TLS for the TCP listener: PEM files.
struct TlsFiles {
  std::string certificate;  ///< the server's certificate (chain)
  std::string key;          ///< its private key
  /// CA certificates that sign client certificates; "" asks for none.
  std::string client_ca;
};

/// Limits against a misbehaving client, and TLS.
struct HttpServerOptions {
  size_t max_body_bytes = 1 << 20;             ///< larger bodies get 413
  unsigned max_connections = 4096;             ///< open connections; past it new ones are closed
  unsigned max_connections_per_address = 256;  ///< from one IP address (0: no limit)
  unsigned idle_timeout_s = 15;                ///< a connection silent this long is closed
  /// A request's headers and body must have arrived this long after the
  /// connection opened or its previous answer was sent, however slowly they
  /// trickle in; past it the connection is closed.
  unsigned request_deadline_s = 10;
  size_t max_handlers = 256;   ///< requests being handled at once (asks wait for a person)
  size_t max_queued = 1024;    ///< requests waiting for a handler; past it 503 with Retry-After
  unsigned event_threads = 0;  ///< threads that move bytes; 0: one per processor
  TlsFiles tls;                ///< TLS on the TCP listener when `certificate` is set
};

/// Serves `handler` on sockets added before start(). Stops in its destructor.
class HttpServer {
 public:
  HttpServer(HttpHandler handler, HttpServerOptions options, HttpAtOnce at_once = nullptr,
             HttpFromHead from_head = nullptr);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Listens on HOST:PORT (port 0 picks a free one); returns the port.
  /// Throws std::runtime_error naming the address and the system error.
  int listenTcp(const std::string& host, int port);

  /// Listens on a Unix socket at `path` (an old socket file there is
  /// replaced; the socket is made 0660). Throws std::runtime_error.
  void listenUnix(const std::string& path);

  /// Starts serving every socket. Throws std::runtime_error.
  void start();

  /// Stops accepting and closes the sockets (waits for running requests;
  /// streams still open are closed).
  void stop();

  struct State;  ///< internal

 private:
  std::unique_ptr<State> state_;
};

}  // namespace toolguard::serve
