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
#include <optional>

#include "host_addresses.hpp"

namespace toolguard::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxResponse = 16u << 20;

long remainingMs(Clock::time_point deadline) {
  return std::max<long>(
      0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
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

bool waitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, static_cast<int>(remainingMs(deadline)));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

Expected<int> connectWithin(const ServiceAddress& a, Clock::time_point deadline) {
  auto finish = [&](int fd, const sockaddr* address, socklen_t size) -> Expected<int> {
    if (connect(fd, address, size) != 0 && errno != EINPROGRESS) {
      const int number = errno;
      close(fd);
      return fail(std::strerror(number));
    }
    if (!waitFor(fd, POLLOUT, deadline)) {
      close(fd);
      return fail("timed out connecting");
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
    if (so_error != 0) {
      close(fd);
      return fail(std::strerror(so_error));
    }
    return fd;
  };
  if (!a.socket_path.empty()) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (a.socket_path.size() >= sizeof address.sun_path) return fail("the socket path is too long");
    std::memcpy(address.sun_path, a.socket_path.data(), a.socket_path.size());
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return fail(std::strerror(errno));
    return finish(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  }
  Expected<std::vector<HostAddress>> addresses = hostAddresses(a.host, a.port);
  if (!addresses) return fail(addresses.error());
  // The last attempt's failure is the one reported.
  Expected<int> connected = fail("");
  for (const HostAddress& address : *addresses) {
    const int s = socket(address.address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0) continue;
    connected = finish(s, reinterpret_cast<const sockaddr*>(&address.address), address.size);
    if (connected) break;
  }
  return connected;
}

Expected<ServiceAddress> parseServiceAddress(const std::string& url) {
  ServiceAddress a;
  if (url.starts_with("unix:")) {
    a.socket_path = url.substr(5);
    if (a.socket_path.starts_with("//")) a.socket_path = a.socket_path.substr(2);
    if (a.socket_path.empty() || a.socket_path[0] != '/') {
      return fail("a Unix socket is given as unix:/PATH");
    }
    return a;
  }
  if (!url.starts_with("http://")) {
    return fail("the address must start with http:// or unix:");
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
      return fail("an unclosed [ in the address");
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
    return fail("expected http://HOST:PORT");
  }
  return a;
}

Expected<PlainHttpResponse> plainHttpExchange(const ServiceAddress& address,
                                              const std::string& method, const std::string& target,
                                              const std::map<std::string, std::string>& headers,
                                              const std::string& body, long timeout_ms) {
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
    return fail("a line break or NUL in the request's address or headers");
  }
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  const Expected<int> connected = connectWithin(address, deadline);
  if (!connected) return fail(connected.error());
  const int fd = *connected;
  std::string request =
      method + " " + address.prefix + target +
      " HTTP/1.1\r\nHost: " + (address.host.empty() ? "localhost" : address.host) +
      "\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  for (const auto& [name, value] : headers) request += name + ": " + value + "\r\n";
  request += "\r\n" + body;
  size_t sent = 0;
  while (sent < request.size()) {
    if (!waitFor(fd, POLLOUT, deadline)) {
      close(fd);
      return fail("timed out sending the request");
    }
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      const std::string why = std::string("sending the request: ") + std::strerror(errno);
      close(fd);
      return fail(why);
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
      close(fd);
      return fail("no answer within " + std::to_string(timeout_ms) + " ms");
    }
    char buffer[16384];
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n < 0) {
      const std::string why = std::string("reading the answer: ") + std::strerror(errno);
      close(fd);
      return fail(why);
    }
    if (n == 0) break;
    in.append(buffer, static_cast<size_t>(n));
    if (in.size() > kMaxResponse) {
      close(fd);
      return fail("the answer is larger than 16 MiB");
    }
    if (head_end == std::string::npos && (head_end = in.find("\r\n\r\n")) != std::string::npos) {
      head_end += 4;
      const std::string head = in.substr(0, head_end);
      if (!head.starts_with("HTTP/1.") || head.size() < 12) {
        close(fd);
        return fail("the answer is not HTTP");
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
    return fail(in.empty() ? "the connection closed without an answer" : "the answer is not HTTP");
  }
  std::string raw = in.substr(head_end);
  if (chunked) {
    if (!unchunk(raw, response.body)) {
      return fail("the answer's chunked body is broken");
    }
  } else if (length) {
    if (raw.size() < *length) {
      return fail("the answer ended early");
    }
    response.body = raw.substr(0, *length);
  } else {
    response.body = std::move(raw);
  }
  return response;
}

}  // namespace toolguard::detail
