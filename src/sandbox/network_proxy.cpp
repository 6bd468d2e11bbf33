// The sandbox's network proxy (see network_proxy.hpp): one thread accepts,
// one thread per connection reads the request's head, checks its host,
// connects out and relays bytes until either side is done.
#include "sandbox/network_proxy.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/web_url.hpp"

namespace toolguard::sandbox {
namespace {

constexpr size_t kMaxHeadBytes = 16 * 1024;
constexpr int kHeadTimeoutMs = 10'000;
constexpr int kConnectTimeoutMs = 10'000;
constexpr int kIdleTimeoutMs = 10 * 60'000;

bool sendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

void answer(int client, int status, std::string_view title, const std::string& message) {
  const std::string body = "toolguard sandbox proxy: " + message + "\n";
  sendAll(client, "HTTP/1.1 " + std::to_string(status) + " " + std::string(title) +
                      "\r\nContent-Type: text/plain\r\nContent-Length: " +
                      std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
}

// Reads until the end of the head (a blank line), at most kMaxHeadBytes,
// within kHeadTimeoutMs. The head without its blank line, and in `rest` what
// came after it; nullopt when it did not come.
std::optional<std::string> readHead(int client, std::string& rest) {
  std::string buffer;
  char chunk[4096];
  while (true) {
    const size_t end = buffer.find("\r\n\r\n");
    if (end != std::string::npos) {
      rest = buffer.substr(end + 4);
      return buffer.substr(0, end);
    }
    if (buffer.size() > kMaxHeadBytes) return std::nullopt;
    pollfd p{client, POLLIN, 0};
    const int ready = ::poll(&p, 1, kHeadTimeoutMs);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::nullopt;
    const ssize_t got = ::recv(client, chunk, sizeof chunk, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    buffer.append(chunk, static_cast<size_t>(got));
  }
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

struct Target {
  std::string host;  // as written, brackets of an IPv6 address included
  int port = 0;
  std::string path;  // plain HTTP: the origin-form ("/..."), for the request line
};

// host[:port] of an authority; nullopt when malformed. `default_port` 0: a
// port is required.
std::optional<Target> parseAuthority(std::string_view authority, int default_port) {
  Target target;
  std::string_view port;
  if (authority.starts_with('[')) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    target.host = authority.substr(0, close + 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty() && !after.starts_with(':')) return std::nullopt;
    port = after.empty() ? "" : after.substr(1);
  } else {
    const size_t colon = authority.find(':');
    target.host = authority.substr(0, colon);
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) return std::nullopt;
    }
  }
  if (port.empty()) {
    if (default_port == 0) return std::nullopt;
    target.port = default_port;
  } else {
    if (port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    target.port = std::stoi(std::string(port));
    if (target.port < 1 || target.port > 65535) return std::nullopt;
  }
  return target;
}

// Headers a proxy must not pass on, and those it sets itself.
bool droppedHeader(std::string_view name) {
  for (std::string_view dropped : {"host", "connection", "proxy-connection", "keep-alive",
                                   "proxy-authorization", "te", "upgrade"}) {
    if (equalsNoCase(name, dropped)) return true;
  }
  return false;
}

struct PlainRequest {
  std::string head;  // what goes to the server
  long long body_bytes = 0;
};

// The head a plain-HTTP request is passed on with: origin-form target, the
// Host the proxy connects to, Connection: close, hop-by-hop headers gone.
// An error message when the head cannot be passed on as it is.
std::variant<PlainRequest, std::string> plainRequest(std::string_view method,
                                                     std::string_view version, const Target& target,
                                                     std::string_view header_lines) {
  PlainRequest out;
  out.head = std::string(method) + " " + target.path + " " + std::string(version) + "\r\n";
  out.head += "Host: " + target.host +
              (target.port == 80 ? std::string() : ":" + std::to_string(target.port)) + "\r\n";
  bool has_length = false;
  while (!header_lines.empty()) {
    const size_t end = header_lines.find("\r\n");
    const std::string_view line = header_lines.substr(0, end);
    header_lines = end == std::string_view::npos ? "" : header_lines.substr(end + 2);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::string("a malformed header");
    const std::string_view name = line.substr(0, colon);
    if (std::any_of(name.begin(), name.end(), [](char c) {
          return c <= ' ' || c == 0x7f || static_cast<unsigned char>(c) >= 0x80;
        })) {
      return std::string("a malformed header name");
    }
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (equalsNoCase(name, "transfer-encoding")) {
      return std::string("a chunked or encoded request body (send it through CONNECT, https)");
    }
    if (equalsNoCase(name, "content-length")) {
      if (has_length || value.empty() || value.size() > 15 ||
          !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::string("a malformed or repeated Content-Length");
      }
      has_length = true;
      out.body_bytes = std::stoll(std::string(value));
    }
    if (droppedHeader(name)) continue;
    out.head.append(line).append("\r\n");
  }
  out.head += "Connection: close\r\n\r\n";
  return out;
}

// Connects to the first address of `addresses` that answers, within the
// timeout; -1 when none does.
int connectTo(const addrinfo* addresses) {
  for (const addrinfo* a = addresses; a != nullptr; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) continue;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      int error = 0;
      socklen_t length = sizeof error;
      if (::poll(&p, 1, kConnectTimeoutMs) == 1 &&
          ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        return fd;
      }
    }
    ::close(fd);
  }
  return -1;
}

// Copies bytes both ways until both sides are done, or nothing moves for
// kIdleTimeoutMs. A plain-HTTP request (`client_budget` >= 0: the bytes of
// its body still to pass on) ends when the server is done, and nothing of
// the client past its body is passed on (a second request could name
// another host).
void relay(int client, int server, long long client_budget) {
  const bool tunnel = client_budget < 0;
  bool client_open = client_budget != 0;
  bool server_open = true;
  char buffer[16 * 1024];
  while (client_open || server_open) {
    pollfd p[2] = {{client, static_cast<short>(client_open ? POLLIN : 0), 0},
                   {server, static_cast<short>(server_open ? POLLIN : 0), 0}};
    const int ready = ::poll(p, 2, kIdleTimeoutMs);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;
    if (client_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
      size_t want = sizeof buffer;
      if (client_budget > 0) want = std::min<size_t>(want, static_cast<size_t>(client_budget));
      const ssize_t got = ::recv(client, buffer, want, 0);
      if (got <= 0 || !sendAll(server, std::string_view(buffer, static_cast<size_t>(got)))) {
        client_open = false;
        if (tunnel) ::shutdown(server, SHUT_WR);
      } else if (client_budget > 0) {
        client_budget -= got;
        if (client_budget == 0) client_open = false;  // the body is passed on; the rest is not
      }
    }
    if (server_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t got = ::recv(server, buffer, sizeof buffer, 0);
      if (got <= 0 || !sendAll(client, std::string_view(buffer, static_cast<size_t>(got)))) {
        server_open = false;
        ::shutdown(client, SHUT_WR);
        if (!tunnel) return;  // plain HTTP: the answer is complete
      }
    }
  }
}

std::string addressText(const sockaddr* address) {
  char text[INET6_ADDRSTRLEN] = "?";
  const void* raw =
      address->sa_family == AF_INET
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(address)->sin_addr)
          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
  ::inet_ntop(address->sa_family, raw, text, sizeof text);
  return text;
}

}  // namespace

NetworkProxy::NetworkProxy(int listen_fd, std::vector<HostPattern> hosts,
                           std::function<bool(const SandboxConnection&)> on_connection)
    : listen_fd_(listen_fd), hosts_(std::move(hosts)), on_connection_(std::move(on_connection)) {
  if (::pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
  acceptor_ = std::thread([this] { acceptLoop(); });
}

NetworkProxy::~NetworkProxy() {
  stop();
}

void NetworkProxy::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
  }
  if (wake_[1] >= 0) {
    const char byte = 1;
    while (::write(wake_[1], &byte, 1) < 0 && errno == EINTR) {
    }
  }
  if (acceptor_.joinable()) acceptor_.join();
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return serving_ == 0; });
  lock.unlock();
  ::close(listen_fd_);
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

bool NetworkProxy::track(int fd) {
  std::lock_guard lock(mutex_);
  if (stopping_) return false;
  open_fds_.insert(fd);
  return true;
}

void NetworkProxy::untrack(int fd) {
  std::lock_guard lock(mutex_);
  open_fds_.erase(fd);
  ::close(fd);
}

bool NetworkProxy::report(const SandboxConnection& connection) {
  if (!on_connection_) return true;
  try {
    return on_connection_(connection);
  } catch (...) {
    return false;  // the caller's audit failing must not take the proxy down with it
  }
}

void NetworkProxy::acceptLoop() {
  while (true) {
    pollfd p[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int ready = ::poll(p, wake_[0] >= 0 ? 2 : 1, -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || (p[1].revents & POLLIN)) return;
    const int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    if (!track(client)) {
      ::close(client);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      ++serving_;
    }
    std::thread([this, client] {
      serve(client);
      untrack(client);
      std::lock_guard lock(mutex_);
      if (--serving_ == 0) idle_.notify_all();
    }).detach();
  }
}

void NetworkProxy::serve(int client) {
  std::string rest;
  const std::optional<std::string> head = readHead(client, rest);
  if (!head) {
    answer(client, 400, "Bad Request", "no complete request head");
    return;
  }
  const size_t line_end = head->find("\r\n");
  const std::string_view request_line = std::string_view(*head).substr(0, line_end);
  const std::string_view header_lines =
      line_end == std::string::npos ? "" : std::string_view(*head).substr(line_end + 2);
  const size_t first_space = request_line.find(' ');
  const size_t second_space = request_line.rfind(' ');
  SandboxConnection seen;
  auto refuse = [&](int status, std::string_view title, const std::string& why) {
    seen.allowed = false;
    seen.reason = why;
    report(seen);
    answer(client, status, title, why);
  };
  if (first_space == std::string_view::npos || second_space == first_space ||
      head->find('\0') != std::string::npos) {
    refuse(400, "Bad Request", "a malformed request line");
    return;
  }
  seen.method = request_line.substr(0, first_space);
  const std::string_view target_text =
      request_line.substr(first_space + 1, second_space - first_space - 1);
  const std::string_view version = request_line.substr(second_space + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    refuse(400, "Bad Request", "not an HTTP/1 request");
    return;
  }
  const bool tunnel = seen.method == "CONNECT";
  std::optional<Target> target;
  if (tunnel) {
    target = parseAuthority(target_text, 0);
  } else if (target_text.size() > 7 && detail::startsWithNoCase(target_text, "http://")) {
    const std::string_view rest_of_url = target_text.substr(7);
    const size_t path_start = rest_of_url.find_first_of("/?#");
    target = parseAuthority(rest_of_url.substr(0, path_start), 80);
    if (target) {
      std::string path(path_start == std::string_view::npos ? "/" : rest_of_url.substr(path_start));
      if (path.front() != '/') path.insert(path.begin(), '/');
      target->path = path.substr(0, path.find('#'));
    }
  } else {
    refuse(400, "Bad Request", "only CONNECT (https) and http:// requests go through this proxy");
    return;
  }
  const std::string host = target ? normalizedHost(target->host) : "";
  seen.host = target ? host : std::string(target_text);
  seen.port = target ? target->port : 0;
  if (!target || host.empty() || target->host.find('@') != std::string::npos) {
    refuse(400, "Bad Request", "a malformed host in the request");
    return;
  }
  const HostPattern* pattern = matchHost(hosts_, host, target->port);
  if (pattern == nullptr) {
    refuse(403, "Forbidden",
           host + ":" + std::to_string(target->port) + " is not in the sandbox's hosts");
    return;
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* addresses = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(target->port).c_str(), &hints, &addresses) != 0 ||
      addresses == nullptr) {
    refuse(502, "Bad Gateway", host + " cannot be resolved");
    return;
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owned(addresses, ::freeaddrinfo);
  if (!pattern->names_address) {
    for (const addrinfo* a = addresses; a != nullptr; a = a->ai_next) {
      if (!isPublicAddress(a->ai_addr)) {
        refuse(403, "Forbidden",
               host + " resolves to " + addressText(a->ai_addr) +
                   ", not a public address (only an entry naming an address reaches one)");
        return;
      }
    }
  }
  std::variant<PlainRequest, std::string> plain;
  if (!tunnel) {
    plain = plainRequest(seen.method, version, *target, header_lines);
    if (const std::string* error = std::get_if<std::string>(&plain)) {
      refuse(400, "Bad Request", *error);
      return;
    }
  }
  seen.allowed = true;
  seen.reason = "sandbox.hosts: " + std::string(pattern->subdomains ? "*." : "") + pattern->host +
                (pattern->port ? ":" + std::to_string(pattern->port) : "");
  if (!report(seen)) {
    answer(client, 503, "Service Unavailable", "the request cannot be audited, so it is not sent");
    return;
  }
  const int server = connectTo(addresses);
  if (server < 0) {
    answer(client, 502, "Bad Gateway", "cannot connect to " + host);
    return;
  }
  if (!track(server)) {
    ::close(server);
    return;
  }
  if (tunnel) {
    if (sendAll(client, "HTTP/1.1 200 Connection established\r\n\r\n") && sendAll(server, rest)) {
      relay(client, server, -1);
    }
  } else {
    PlainRequest& request = std::get<PlainRequest>(plain);
    const size_t body_now = std::min<size_t>(rest.size(), static_cast<size_t>(request.body_bytes));
    if (sendAll(server, request.head) &&
        sendAll(server, std::string_view(rest).substr(0, body_now))) {
      relay(client, server, request.body_bytes - static_cast<long long>(body_now));
    }
  }
  untrack(server);
}

}  // namespace toolguard::sandbox
