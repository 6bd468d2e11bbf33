// The HTTP/1.1 server under `toolguard serve`: libmicrohttpd with one thread
// per connection (a request may wait minutes for a person, and only its own
// connection waits), on sockets made here so TCP and Unix sockets are served
// alike.
#include "http_server.hpp"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "serve/json_response.hpp"

namespace toolguard::serve {

std::string HttpRequest::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

std::string HttpRequest::arg(const std::string& name) const {
  auto it = query.find(name);
  return it == query.end() ? "" : it->second;
}

namespace {

// One request being read: its body so far and whether it grew too large.
struct PendingRequest {
  std::string body;
  bool too_large = false;
};

struct Listener {
  HttpServer::State* state = nullptr;
  int fd = -1;
  bool unix_socket = false;
  std::string name;  // for messages
  MHD_Daemon* daemon = nullptr;
};

std::string systemError(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

MHD_Result collect(void* cls, MHD_ValueKind, const char* key, const char* value) {
  auto* into = static_cast<std::map<std::string, std::string>*>(cls);
  std::string name = key ? key : "";
  if (into->size() < 200 && !name.empty()) (*into)[name] = value ? value : "";
  return MHD_YES;
}

MHD_Result collectHeader(void* cls, MHD_ValueKind, const char* key, const char* value) {
  auto* into = static_cast<std::map<std::string, std::string>*>(cls);
  std::string name = key ? key : "";
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!name.empty()) (*into)[name] = value ? value : "";
  return MHD_YES;
}

std::string peerOf(MHD_Connection* connection, bool unix_socket) {
  if (unix_socket) return "unix";
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!info || !info->client_addr) return "";
  char host[NI_MAXHOST];
  char port[NI_MAXSERV];
  const socklen_t size =
      info->client_addr->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
  if (getnameinfo(info->client_addr, size, host, sizeof host, port, sizeof port,
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "";
  }
  return std::string(host) + ":" + port;
}

// Whether the peer of socket `fd` has closed its side or the connection broke
// (without reading what it may have sent).
bool peerClosed(int fd) {
  pollfd p{fd, POLLRDHUP, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  return (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

MHD_Result send(MHD_Connection* connection, const HttpResponse& response) {
  MHD_Response* r = MHD_create_response_from_buffer(
      response.body.size(), const_cast<char*>(response.body.data()), MHD_RESPMEM_MUST_COPY);
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
  HttpServerOptions options;
  std::vector<Listener> listeners;
  std::vector<std::string> unix_paths;
};

namespace {

MHD_Result onRequest(void* cls, MHD_Connection* connection, const char* url, const char* method,
                     const char*, const char* upload_data, size_t* upload_data_size,
                     void** request_state) {
  auto* listener = static_cast<Listener*>(cls);
  HttpServer::State& state = *listener->state;
  auto* pending = static_cast<PendingRequest*>(*request_state);
  if (!pending) {
    pending = new PendingRequest;
    *request_state = pending;
    const char* length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    if (length) {
      errno = 0;
      char* end = nullptr;
      const unsigned long long declared = std::strtoull(length, &end, 10);
      if (errno != 0 || end == length || declared > state.options.max_body_bytes) {
        // Answered before the body is read; the connection is then closed.
        return send(
            connection,
            errorResponse(413, "the body is larger than " +
                                   std::to_string(state.options.max_body_bytes) + " bytes"));
      }
    }
    return MHD_YES;
  }
  if (*upload_data_size != 0) {
    if (pending->body.size() + *upload_data_size > state.options.max_body_bytes) {
      pending->too_large = true;
    } else if (!pending->too_large) {
      pending->body.append(upload_data, *upload_data_size);
    }
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (pending->too_large) {
    return send(connection,
                errorResponse(413, "the body is larger than " +
                                       std::to_string(state.options.max_body_bytes) + " bytes"));
  }
  HttpRequest request;
  request.method = method ? method : "";
  request.path = url ? url : "";
  request.body = std::move(pending->body);
  request.peer = peerOf(connection, listener->unix_socket);
  MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect, &request.query);
  MHD_get_connection_values(connection, MHD_HEADER_KIND, collectHeader, &request.headers);
  if (const MHD_ConnectionInfo* info =
          MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD)) {
    const int fd = info->connect_fd;
    request.client_gone = [fd] { return peerClosed(fd); };
  }
  HttpResponse response;
  try {
    response = state.handler(request);
  } catch (const std::exception& e) {
    response = errorResponse(500, std::string("internal error: ") + e.what());
  } catch (...) {
    response = errorResponse(500, "internal error");
  }
  return send(connection, response);
}

void onCompleted(void*, MHD_Connection*, void** request_state, MHD_RequestTerminationCode) {
  delete static_cast<PendingRequest*>(*request_state);
  *request_state = nullptr;
}

}  // namespace

HttpServer::HttpServer(HttpHandler handler, HttpServerOptions options)
    : state_(std::make_unique<State>()) {
  state_->handler = std::move(handler);
  state_->options = options;
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
  if (bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, 511) != 0) {
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
  if (!bound || listen(fd, 511) != 0) {
    const std::string message = systemError("cannot listen on " + path);
    close(fd);
    throw std::runtime_error(message);
  }
  state_->listeners.push_back(Listener{state_.get(), fd, true, path, nullptr});
  state_->unix_paths.push_back(path);
}

void HttpServer::start() {
  for (Listener& l : state_->listeners) {
    l.daemon = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                                    MHD_USE_ERROR_LOG | MHD_USE_ITC,
                                0, nullptr, nullptr, &onRequest, &l, MHD_OPTION_EXTERNAL_LOGGER,
                                &logFromLibrary, nullptr, MHD_OPTION_LISTEN_SOCKET, l.fd,
                                MHD_OPTION_CONNECTION_LIMIT, state_->options.max_connections,
                                MHD_OPTION_CONNECTION_TIMEOUT, state_->options.idle_timeout_s,
                                MHD_OPTION_NOTIFY_COMPLETED, &onCompleted, nullptr, MHD_OPTION_END);
    if (l.daemon) l.fd = -1;  // the daemon owns it now, and closes it when stopped
    if (!l.daemon) {
      throw std::runtime_error("cannot serve on " + l.name + ": libmicrohttpd would not start");
    }
  }
}

void HttpServer::stop() {
  if (!state_) return;
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
