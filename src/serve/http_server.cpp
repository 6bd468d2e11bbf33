// The HTTP/1.1 server under `toolguard serve`: libmicrohttpd with epoll and a
// few event threads that only move bytes, so an idle or slow connection costs
// a socket and a little memory, never a thread. A request whose headers and
// body have arrived is suspended and handed to the worker pool (a handler may
// wait minutes for a person); its answer resumes it. The limits against a
// misbehaving client are kept here: connections in all and per address, a
// deadline for a whole request however slowly it trickles in, a bounded
// queue past which requests are answered 503 at once, and strict headers.
#include "http_server.hpp"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdarg>
#include <cstring>
#include <iostream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "serve/http_request_reading.hpp"
#include "serve/json_response.hpp"
#include "serve/later_answer_internal.hpp"
#include "serve/response_stream_mhd.hpp"
#include "serve/tls_identity.hpp"
#include "serve/worker_pool.hpp"

namespace toolguard::serve {

namespace {

using Clock = std::chrono::steady_clock;

// One open connection, for the request deadline: since when it has been
// waiting for a whole request (0 while one is being handled).
struct OpenConnection {
  int fd = -1;
  std::string peer;  // the client's address, written once (peerOf) for all its requests
  std::atomic<int64_t> waiting_since_ms{0};
  bool cut = false;  // shut down by the deadline; guarded by the table's mutex
};

// One request: its head, its body so far, and once handled, its answer.
struct PendingRequest {
  HttpRequest request;  // read from the head; the body is added as it arrives
  bool too_large = false;
  bool handed_over = false;  // given to a worker; the connection is suspended
  HttpResponse response;     // the worker's answer
};

struct Listener {
  HttpServer::State* state = nullptr;
  int fd = -1;
  bool unix_socket = false;
  std::string name;  // for messages
  MHD_Daemon* daemon = nullptr;
};

int64_t nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch())
      .count();
}

std::string systemError(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// A response whose body is `stream` (defined below, with the stream's side).
MHD_Response* createStreamResponse(HttpServer::State& state, MHD_Connection* connection,
                                   const std::shared_ptr<ResponseStream>& stream);

MHD_Result send(MHD_Connection* connection, const HttpResponse& response,
                HttpServer::State* state = nullptr) {
  MHD_Response* r = response.stream && state != nullptr
                        ? createStreamResponse(*state, connection, response.stream)
                        : MHD_create_response_from_buffer(response.body.size(),
                                                          const_cast<char*>(response.body.data()),
                                                          MHD_RESPMEM_MUST_COPY);
  if (!r) return MHD_NO;
  if (!response.content_type.empty()) {
    MHD_add_response_header(r, "Content-Type", response.content_type.c_str());
  }
  for (const auto& [name, value] : response.headers) {
    MHD_add_response_header(r, name.c_str(), value.c_str());
  }
  const MHD_Result queued =
      MHD_queue_response(connection, static_cast<unsigned>(response.status), r);
  MHD_destroy_response(r);
  return queued;
}

// An answer after which the connection is closed (its request was refused
// before or while its body arrived).
MHD_Result sendAndClose(MHD_Connection* connection, HttpResponse response) {
  response.headers.emplace_back("Connection", "close");
  return send(connection, response);
}

void logFromLibrary(void*, const char* format, va_list arguments) {
  char line[512];
  std::vsnprintf(line, sizeof line, format, arguments);
  std::string text = line;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  std::cerr << "toolguard serve: http: " << text << "\n";
}

}  // namespace

struct HttpServer::State {
  HttpHandler handler;
  HttpAtOnce at_once;
  HttpFromHead from_head;
  HttpServerOptions options;
  std::vector<Listener> listeners;
  std::vector<std::string> unix_paths;
  std::unique_ptr<WorkerPool> workers;
  // TLS material, kept alive while the daemons run.
  std::string tls_certificate, tls_key, tls_client_ca;
  // Open connections, for the request deadline.
  std::mutex connections_mutex;
  std::unordered_set<OpenConnection*> connections;
  // The thread that enforces the request deadline.
  std::thread deadline_thread;
  std::mutex deadline_mutex;
  std::condition_variable deadline_wake;
  bool stopping = false;
  // The streams being sent, closed at stop (a suspended connection must be
  // resumed before its daemon stops).
  std::mutex streams_mutex;
  std::set<std::shared_ptr<ResponseStream>> streams;
  bool streams_closed = false;  // stopping: a new stream is closed at once
  // Connections suspended until a later answer completes (stop waits).
  std::mutex laters_mutex;
  std::condition_variable laters_done;
  size_t laters_waiting = 0;
  bool laters_closed = false;  // stopping: no answer may wait any more

  // Shuts down the connections that have waited past the deadline for a
  // whole request; libmicrohttpd then sees them end and closes them.
  void cutLateConnections() {
    const int64_t limit_ms = int64_t{options.request_deadline_s} * 1000;
    const int64_t now = nowMs();
    std::lock_guard<std::mutex> lock(connections_mutex);
    for (OpenConnection* c : connections) {
      const int64_t since = c->waiting_since_ms.load();
      if (since != 0 && !c->cut && now - since > limit_ms) {
        ::shutdown(c->fd, SHUT_RDWR);
        c->cut = true;
      }
    }
  }

  void enforceDeadlines() {
    std::unique_lock<std::mutex> lock(deadline_mutex);
    while (!stopping) {
      deadline_wake.wait_for(lock, std::chrono::milliseconds(250));
      if (stopping) break;
      lock.unlock();
      cutLateConnections();
      lock.lock();
    }
  }
};

namespace {

MHD_Response* createStreamResponse(HttpServer::State& state, MHD_Connection* connection,
                                   const std::shared_ptr<ResponseStream>& stream) {
  auto released = [&state](const std::shared_ptr<ResponseStream>& gone, bool ended_early) {
    {
      std::lock_guard lock(state.streams_mutex);
      state.streams.erase(gone);
    }
    if (ended_early && gone->on_gone) {
      // Not on this thread: libmicrohttpd may hold its own locks here, and
      // whoever listens may push to another stream (which resumes it).
      std::function<void()> on_gone = gone->on_gone;
      if (!state.workers || !state.workers->trySubmit(on_gone)) std::thread(on_gone).detach();
    }
  };
  MHD_Response* r = streamResponse(stream, connection, std::move(released));
  if (!r) return nullptr;
  std::lock_guard lock(state.streams_mutex);
  state.streams.insert(stream);
  if (state.streams_closed) stream->close();
  return r;
}

}  // namespace

namespace {

OpenConnection* openConnectionOf(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? static_cast<OpenConnection*>(info->socket_context) : nullptr;
}

void onConnection(void* cls, MHD_Connection* connection, void** socket_context,
                  MHD_ConnectionNotificationCode code) {
  auto* listener = static_cast<Listener*>(cls);
  HttpServer::State& state = *listener->state;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    auto* open = new OpenConnection;
    if (const MHD_ConnectionInfo* info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD)) {
      open->fd = info->connect_fd;
    }
    open->peer = peerOf(connection, listener->unix_socket);
    open->waiting_since_ms = nowMs();
    std::lock_guard<std::mutex> lock(state.connections_mutex);
    state.connections.insert(open);
    *socket_context = open;
    return;
  }
  // Closed: libmicrohttpd closes the socket only after this returns, so the
  // deadline thread never shuts down a descriptor reused by another.
  auto* open = static_cast<OpenConnection*>(*socket_context);
  if (!open) return;
  {
    std::lock_guard<std::mutex> lock(state.connections_mutex);
    state.connections.erase(open);
  }
  delete open;
  *socket_context = nullptr;
}

HttpResponse tooLarge(const HttpServer::State& state) {
  return errorResponse(
      413, "the body is larger than " + std::to_string(state.options.max_body_bytes) + " bytes");
}

// What `answer` gives; an exception is a 500.
template <typename Answer>
auto orInternalError(Answer answer) -> decltype(answer()) {
  try {
    return answer();
  } catch (const std::exception& e) {
    return errorResponse(500, std::string("internal error: ") + e.what());
  } catch (...) {
    return errorResponse(500, "internal error");
  }
}

// The handler's answer; an exception is a 500.
HttpResponse answer(const HttpServer::State& state, const HttpRequest& request) {
  return orInternalError([&] { return state.handler(request); });
}

// The answer on the event thread, if it gives one; an exception is a 500.
std::optional<HttpResponse> answerAtOnce(const HttpServer::State& state, HttpRequest& request) {
  return orInternalError([&] { return state.at_once(request); });
}

// The answer from the head alone, if it gives one; an exception is a 500.
std::optional<HttpResponse> answerFromHead(const HttpServer::State& state, HttpRequest& request) {
  return orInternalError([&] { return state.from_head(request); });
}

// Counts one answer that may come later (stop() waits for each); false once
// the server is stopping, when no answer may wait any more.
bool reserveLater(HttpServer::State& state) {
  std::lock_guard<std::mutex> lock(state.laters_mutex);
  if (state.laters_closed) return false;
  ++state.laters_waiting;
  return true;
}

void releaseLater(HttpServer::State& state) {
  std::lock_guard<std::mutex> lock(state.laters_mutex);
  if (--state.laters_waiting == 0) state.laters_done.notify_all();
}

HttpResponse busy() {
  HttpResponse r = errorResponse(503, "the service is busy; try again in a second");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// The connection (suspended) waits for a later answer, and is resumed with
// it from the thread that completes it. Takes a reservation (reserveLater).
void awaitLater(HttpServer::State& state, MHD_Connection* connection, PendingRequest& pending,
                LaterAnswer& later) {
  LaterAnswer::Internal::take(later, [&state, connection, &pending](HttpResponse response) {
    if (response.later || response.stream) {
      response = errorResponse(500, "internal error: an answer given later must be whole");
    }
    pending.response = std::move(response);
    MHD_resume_connection(connection);
    releaseLater(state);
  });
}

// Runs the handler on a worker and resumes the connection with its answer
// (or leaves it suspended until a later answer completes).
void handOver(HttpServer::State& state, MHD_Connection* connection, PendingRequest& pending,
              HttpRequest request) {
  pending.handed_over = true;
  MHD_suspend_connection(connection);
  auto work = [&state, connection, &pending, request = std::move(request)]() {
    HttpResponse response = answer(state, request);
    if (std::shared_ptr<LaterAnswer> later = std::move(response.later)) {
      // Workers finish before stop() closes the reservations: never refused.
      if (reserveLater(state)) {
        awaitLater(state, connection, pending, *later);
        return;
      }
      response = busy();
    }
    pending.response = std::move(response);
    MHD_resume_connection(connection);
  };
  if (!state.workers->trySubmit(std::move(work))) {
    pending.response = busy();
    MHD_resume_connection(connection);
  }
}

MHD_Result onRequest(void* cls, MHD_Connection* connection, const char* url, const char* method,
                     const char*, const char* upload_data, size_t* upload_data_size,
                     void** request_state) {
  auto* listener = static_cast<Listener*>(cls);
  HttpServer::State& state = *listener->state;
  auto* pending = static_cast<PendingRequest*>(*request_state);
  if (!pending) {
    pending = new PendingRequest;
    *request_state = pending;
    if (const std::string problem = headerProblem(connection); !problem.empty()) {
      return sendAndClose(connection, errorResponse(400, problem));
    }
    if (!declaredLengthFits(connection, state.options.max_body_bytes)) {
      // Answered before the body is read; the connection is then closed.
      return sendAndClose(connection, tooLarge(state));
    }
    OpenConnection* open = openConnectionOf(connection);
    HttpRequest& head = pending->request;
    head = readRequestHead(connection, method, url,
                           open ? open->peer : peerOf(connection, listener->unix_socket),
                           !state.tls_client_ca.empty());
    if (state.from_head) {
      // Settled by its head (no credentials where they are needed): the
      // body is never read, and the connection is closed after the answer.
      if (std::optional<HttpResponse> now = answerFromHead(state, head)) {
        if (now->later || now->stream) {
          *now = errorResponse(500, "internal error: an answer from the head must be whole");
        }
        return sendAndClose(connection, *now);
      }
    }
    return MHD_YES;
  }
  if (pending->handed_over) return send(connection, pending->response, &state);
  if (*upload_data_size != 0) {
    if (pending->request.body.size() + *upload_data_size > state.options.max_body_bytes) {
      pending->too_large = true;
    } else if (!pending->too_large) {
      pending->request.body.append(upload_data, *upload_data_size);
    }
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (pending->too_large) return sendAndClose(connection, tooLarge(state));
  HttpRequest request = std::move(pending->request);
  OpenConnection* open = openConnectionOf(connection);
  if (open) {
    open->waiting_since_ms = 0;  // handled now: the deadline waits for its answer
    const int fd = open->fd;
    request.client_gone = [fd] { return peerClosed(fd); };
  }
  if (state.at_once) {
    // Reserved before the answer is tried: once stop() has waited for the
    // answers still coming, none may start (a keep-alive connection still
    // sends requests while the daemon is quiesced).
    if (!reserveLater(state)) return sendAndClose(connection, busy());
    std::optional<HttpResponse> now = answerAtOnce(state, request);
    if (now && now->later) {
      std::shared_ptr<LaterAnswer> later = std::move(now->later);
      pending->handed_over = true;
      MHD_suspend_connection(connection);
      awaitLater(state, connection, *pending, *later);
      return MHD_YES;
    }
    releaseLater(state);
    if (now) return send(connection, *now, &state);
  }
  handOver(state, connection, *pending, std::move(request));
  return MHD_YES;
}

// A request ended (answered or not): the connection waits for the next one.
void onCompleted(void*, MHD_Connection* connection, void** request_state,
                 MHD_RequestTerminationCode) {
  delete static_cast<PendingRequest*>(*request_state);
  *request_state = nullptr;
  if (OpenConnection* open = openConnectionOf(connection)) open->waiting_since_ms = nowMs();
}

}  // namespace

HttpServer::HttpServer(HttpHandler handler, HttpServerOptions options, HttpAtOnce at_once,
                       HttpFromHead from_head)
    : state_(std::make_unique<State>()) {
  state_->handler = std::move(handler);
  state_->at_once = std::move(at_once);
  state_->from_head = std::move(from_head);
  state_->options = options;
  if (!options.tls.certificate.empty() || !options.tls.key.empty()) {
    if (options.tls.certificate.empty() || options.tls.key.empty()) {
      throw std::runtime_error("TLS needs both a certificate and its key");
    }
    state_->tls_certificate = readPemFile("TLS certificate", options.tls.certificate);
    state_->tls_key = readPemFile("TLS key", options.tls.key);
  } else if (!options.tls.client_ca.empty()) {
    throw std::runtime_error("a client CA needs TLS: give the server's certificate and key too");
  }
  if (!options.tls.client_ca.empty()) {
    state_->tls_client_ca = readPemFile("client CA", options.tls.client_ca);
  }
}

HttpServer::~HttpServer() {
  stop();
}

int HttpServer::listenTcp(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string where = host + ":" + std::to_string(port);
  if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0) {
    throw std::runtime_error("cannot listen on " + where + ": " + gai_strerror(rc) +
                             " (give a numeric address, such as 127.0.0.1)");
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owned(found, freeaddrinfo);
  const int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(systemError("cannot listen on " + where));
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, 4096) != 0) {
    const std::string message = systemError("cannot listen on " + where);
    close(fd);
    throw std::runtime_error(message);
  }
  sockaddr_storage bound{};
  socklen_t size = sizeof bound;
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size);
  const int bound_port = bound.ss_family == AF_INET6
                             ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                             : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  state_->listeners.push_back(Listener{state_.get(), fd, false, where, nullptr});
  return bound_port;
}

void HttpServer::listenUnix(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof address.sun_path) {
    throw std::runtime_error("cannot listen on " + path + ": the path is empty or too long");
  }
  std::memcpy(address.sun_path, path.data(), path.size());
  struct stat existing {};
  if (lstat(path.c_str(), &existing) == 0) {
    if (!S_ISSOCK(existing.st_mode)) {
      throw std::runtime_error("cannot listen on " + path +
                               ": a file that is not a socket is there");
    }
    unlink(path.c_str());
  }
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(systemError("cannot listen on " + path));
  const mode_t previous = umask(0117);
  const bool bound = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  umask(previous);
  if (!bound || listen(fd, 4096) != 0) {
    const std::string message = systemError("cannot listen on " + path);
    close(fd);
    throw std::runtime_error(message);
  }
  state_->listeners.push_back(Listener{state_.get(), fd, true, path, nullptr});
  state_->unix_paths.push_back(path);
}

namespace {

// Each connection's memory in libmicrohttpd: the request's head, the read
// buffer (half of it at first) and the answer's head; a body is copied out
// as it arrives. libmicrohttpd zeroes all of it after every request, so it
// is what each request costs in stores and in the caches (its default,
// 32 KiB, swept the whole first-level data cache every request).
constexpr size_t kConnectionMemory = 8 * 1024;

// Starts libmicrohttpd on one listener.
MHD_Daemon* startDaemon(HttpServer::State& state, Listener& l) {
  const HttpServerOptions& o = state.options;
  const unsigned threads =
      o.event_threads != 0 ? o.event_threads : std::max(1u, std::thread::hardware_concurrency());
  unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
  const bool tls = !l.unix_socket && !state.tls_certificate.empty();
  if (tls) flags |= MHD_USE_TLS;
  std::vector<MHD_OptionItem> options = {
      {MHD_OPTION_EXTERNAL_LOGGER, reinterpret_cast<intptr_t>(&logFromLibrary), nullptr},
      {MHD_OPTION_LISTEN_SOCKET, l.fd, nullptr},
      {MHD_OPTION_THREAD_POOL_SIZE, threads, nullptr},
      {MHD_OPTION_CONNECTION_LIMIT, o.max_connections, nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, o.idle_timeout_s, nullptr},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, kConnectionMemory, nullptr},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&onCompleted), nullptr},
      {MHD_OPTION_NOTIFY_CONNECTION, reinterpret_cast<intptr_t>(&onConnection), &l},
  };
  if (!l.unix_socket && o.max_connections_per_address != 0) {
    options.push_back({MHD_OPTION_PER_IP_CONNECTION_LIMIT, o.max_connections_per_address, nullptr});
  }
  if (tls) {
    options.push_back(
        {MHD_OPTION_HTTPS_MEM_CERT, 0, const_cast<char*>(state.tls_certificate.c_str())});
    options.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, const_cast<char*>(state.tls_key.c_str())});
    if (!state.tls_client_ca.empty()) {
      options.push_back(
          {MHD_OPTION_HTTPS_MEM_TRUST, 0, const_cast<char*>(state.tls_client_ca.c_str())});
    }
  }
  options.push_back({MHD_OPTION_END, 0, nullptr});
  return MHD_start_daemon(flags, 0, nullptr, nullptr, &onRequest, &l, MHD_OPTION_ARRAY,
                          options.data(), MHD_OPTION_END);
}

}  // namespace

void HttpServer::start() {
  state_->workers = std::make_unique<WorkerPool>(
      WorkerPoolLimits{state_->options.max_handlers, state_->options.max_queued});
  for (Listener& l : state_->listeners) {
    l.daemon = startDaemon(*state_, l);
    if (!l.daemon) {
      throw std::runtime_error("cannot serve on " + l.name + ": libmicrohttpd would not start");
    }
    l.fd = -1;  // the daemon owns it now, and closes it when stopped
  }
  state_->deadline_thread = std::thread([state = state_.get()] { state->enforceDeadlines(); });
}

void HttpServer::stop() {
  if (!state_) return;
  // No new connections; the requests being handled finish and resume their
  // connections (a suspended connection must be resumed before the daemon
  // stops); then the daemons close every connection.
  for (Listener& l : state_->listeners) {
    // The listening socket is ours again, closed once the daemon has stopped.
    if (l.daemon) l.fd = MHD_quiesce_daemon(l.daemon);
  }
  if (state_->workers) state_->workers->drain();
  {
    std::unique_lock<std::mutex> lock(state_->laters_mutex);
    state_->laters_closed = true;
    state_->laters_done.wait(lock, [&] { return state_->laters_waiting == 0; });
  }
  {
    std::lock_guard<std::mutex> lock(state_->streams_mutex);
    state_->streams_closed = true;
    for (const std::shared_ptr<ResponseStream>& stream : state_->streams) stream->close();
  }
  {
    std::lock_guard<std::mutex> lock(state_->deadline_mutex);
    state_->stopping = true;
  }
  state_->deadline_wake.notify_all();
  if (state_->deadline_thread.joinable()) state_->deadline_thread.join();
  for (Listener& l : state_->listeners) {
    if (l.daemon) {
      MHD_stop_daemon(l.daemon);
      l.daemon = nullptr;
    }
    if (l.fd >= 0) close(l.fd);
    l.fd = -1;
  }
  for (const std::string& path : state_->unix_paths) unlink(path.c_str());
  state_->unix_paths.clear();
}

}  // namespace toolguard::serve
