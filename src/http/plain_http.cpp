// A small HTTP/1.1 client over plain sockets: connect (non-blocking, with a
// deadline), write the request, read until the server closes or the
// declared length arrived. Chunked responses are read too.
#include "plain_http.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "host_addresses.hpp"

namespace toolguard::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxResponse = 16u << 20;

long remainingMs(Clock::time_point deadline) {
  return std::max<long>(
      0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
}

bool waitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, static_cast<int>(remainingMs(deadline)));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

int connectWithin(const ServiceAddress& a, Clock::time_point deadline, std::string& error) {
  auto finish = [&](int fd, const sockaddr* address, socklen_t size) {
    if (connect(fd, address, size) != 0 && errno != EINPROGRESS) {
      error = std::strerror(errno);
      close(fd);
      return -1;
    }
    if (!waitFor(fd, POLLOUT, deadline)) {
      error = "timed out connecting";
      close(fd);
      return -1;
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
    if (so_error != 0) {
      error = std::strerror(so_error);
      close(fd);
      return -1;
    }
    return fd;
  };
  if (!a.socket_path.empty()) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (a.socket_path.size() >= sizeof address.sun_path) {
      error = "the socket path is too long";
      return -1;
    }
    std::memcpy(address.sun_path, a.socket_path.data(), a.socket_path.size());
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
      error = std::strerror(errno);
      return -1;
    }
    return finish(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  }
  int fd = -1;
  for (const HostAddress& address : hostAddresses(a.host, a.port, error)) {
    if (fd >= 0) break;
    const int s = socket(address.address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0) continue;
    fd = finish(s, reinterpret_cast<const sockaddr*>(&address.address), address.size);
  }
  return fd;
}

std::string lowercased(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Decodes a chunked body; false when it is not well formed.
bool unchunk(const std::string& in, std::string& out) {
  size_t at = 0;
  for (;;) {
    const size_t line_end = in.find("\r\n", at);
    if (line_end == std::string::npos) return false;
    size_t size = 0;
    size_t i = at;
    for (; i < line_end && std::isxdigit(static_cast<unsigned char>(in[i])); ++i) {
      size = size * 16 + static_cast<size_t>(std::stoi(std::string(1, in[i]), nullptr, 16));
      if (size > kMaxResponse) return false;
    }
    if (i == at) return false;
    at = line_end + 2;
    if (size == 0) return true;
    if (in.size() < at + size + 2) return false;
    out.append(in, at, size);
    at += size + 2;
  }
}

}  // namespace

std::optional<ServiceAddress> parseServiceAddress(const std::string& url, std::string& error) {
  ServiceAddress a;
  if (url.starts_with("unix:")) {
    a.socket_path = url.substr(5);
    if (a.socket_path.starts_with("//")) a.socket_path = a.socket_path.substr(2);
    if (a.socket_path.empty() || a.socket_path[0] != '/') {
      error = "a Unix socket is given as unix:/PATH";
      return std::nullopt;
    }
    return a;
  }
  if (!url.starts_with("http://")) {
    error = "the address must start with http:// or unix:";
    return std::nullopt;
  }
  std::string rest = url.substr(7);
  if (const size_t slash = rest.find('/'); slash != std::string::npos) {
    a.prefix = rest.substr(slash);
    rest.resize(slash);
    while (!a.prefix.empty() && a.prefix.back() == '/') a.prefix.pop_back();
  }
  if (rest.starts_with('[')) {
    const size_t close = rest.find(']');
    if (close == std::string::npos) {
      error = "an unclosed [ in the address";
      return std::nullopt;
    }
    a.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (rest.starts_with(':')) a.port = rest.substr(1);
  } else if (const size_t colon = rest.rfind(':'); colon != std::string::npos) {
    a.host = rest.substr(0, colon);
    a.port = rest.substr(colon + 1);
  } else {
    a.host = rest;
  }
  if (a.host.empty() || a.port.empty() ||
      a.port.find_first_not_of("0123456789") != std::string::npos) {
    error = "expected http://HOST:PORT";
    return std::nullopt;
  }
  return a;
}

std::optional<PlainHttpResponse> plainHttpExchange(
    const ServiceAddress& address, const std::string& method, const std::string& target,
    const std::map<std::string, std::string>& headers, const std::string& body, long timeout_ms,
    std::string& error) {
  // Nothing that could end a header line early goes into the request.
  auto breaksLines = [](const std::string& text) {
    return text.find_first_of("\r\n", 0) != std::string::npos ||
           text.find('\0') != std::string::npos;
  };
  bool unsafe = breaksLines(method) || breaksLines(target) || breaksLines(address.prefix) ||
                breaksLines(address.host);
  for (const auto& [name, value] : headers)
    unsafe = unsafe || breaksLines(name) || breaksLines(value);
  if (unsafe) {
    error = "a line break or NUL in the request's address or headers";
    return std::nullopt;
  }
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  const int fd = connectWithin(address, deadline, error);
  if (fd < 0) return std::nullopt;
  std::string request =
      method + " " + address.prefix + target +
      " HTTP/1.1\r\nHost: " + (address.host.empty() ? "localhost" : address.host) +
      "\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  for (const auto& [name, value] : headers) request += name + ": " + value + "\r\n";
  request += "\r\n" + body;
  size_t sent = 0;
  while (sent < request.size()) {
    if (!waitFor(fd, POLLOUT, deadline)) {
      error = "timed out sending the request";
      close(fd);
      return std::nullopt;
    }
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      error = std::string("sending the request: ") + std::strerror(errno);
      close(fd);
      return std::nullopt;
    }
    if (n > 0) sent += static_cast<size_t>(n);
  }
  std::string in;
  size_t head_end = std::string::npos;
  std::optional<size_t> length;
  bool chunked = false;
  PlainHttpResponse response;
  for (;;) {
    if (head_end != std::string::npos && length && in.size() >= head_end + *length) break;
    if (!waitFor(fd, POLLIN, deadline)) {
      error = "no answer within " + std::to_string(timeout_ms) + " ms";
      close(fd);
      return std::nullopt;
    }
    char buffer[16384];
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n < 0) {
      error = std::string("reading the answer: ") + std::strerror(errno);
      close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    in.append(buffer, static_cast<size_t>(n));
    if (in.size() > kMaxResponse) {
      error = "the answer is larger than 16 MiB";
      close(fd);
      return std::nullopt;
    }
    if (head_end == std::string::npos && (head_end = in.find("\r\n\r\n")) != std::string::npos) {
      head_end += 4;
      const std::string head = in.substr(0, head_end);
      if (!head.starts_with("HTTP/1.") || head.size() < 12) {
        error = "the answer is not HTTP";
        close(fd);
        return std::nullopt;
      }
      response.status = std::atoi(head.c_str() + 9);
      size_t line = head.find("\r\n") + 2;
      while (line < head.size() - 2) {
        const size_t end = head.find("\r\n", line);
        const std::string field = head.substr(line, end - line);
        line = end + 2;
        const size_t colon = field.find(':');
        if (colon == std::string::npos) continue;
        const std::string name = lowercased(field.substr(0, colon));
        std::string value = field.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        if (name == "content-length") length = std::strtoull(value.c_str(), nullptr, 10);
        if (name == "content-type") response.content_type = value;
        if (name == "transfer-encoding" && lowercased(value).find("chunked") != std::string::npos) {
          chunked = true;
        }
      }
    }
  }
  close(fd);
  if (head_end == std::string::npos) {
    error = in.empty() ? "the connection closed without an answer" : "the answer is not HTTP";
    return std::nullopt;
  }
  std::string raw = in.substr(head_end);
  if (chunked) {
    if (!unchunk(raw, response.body)) {
      error = "the answer's chunked body is broken";
      return std::nullopt;
    }
  } else if (length) {
    if (raw.size() < *length) {
      error = "the answer ended early";
      return std::nullopt;
    }
    response.body = raw.substr(0, *length);
  } else {
    response.body = std::move(raw);
  }
  return response;
}

}  // namespace toolguard::detail
