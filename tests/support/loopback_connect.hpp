#pragma once
// A raw TCP connection to the loopback port of a server under test, from a
// chosen loopback address (all of 127/8 is loopback), so that a test or a
// benchmark can play clients on several addresses.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace toolguard::testing {

/// A TCP connection to 127.0.0.1:port from the loopback address `from`; -1 when refused.
inline int connectFrom(const std::string& from, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in source{};
  source.sin_family = AF_INET;
  inet_pton(AF_INET, from.c_str(), &source.sin_addr);
  sockaddr_in target{};
  target.sin_family = AF_INET;
  target.sin_port = htons(static_cast<uint16_t>(port));
  target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&source), sizeof source) != 0 ||
      connect(fd, reinterpret_cast<sockaddr*>(&target), sizeof target) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/// Sends `head` (a request's start line and headers, whose Content-Length
/// announces a body) on a new connection from 127.0.0.1 and never the body:
/// what the server answers within `wait_ms`, read until it closes the
/// connection or the time is up ("" when it said nothing: it waits for the
/// body). The connection is then closed.
inline std::string answerToHeadAlone(int port, const std::string& head, int wait_ms) {
  const int fd = connectFrom("127.0.0.1", port);
  if (fd < 0) return "";
  std::string answer;
  if (::send(fd, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size())) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            until - std::chrono::steady_clock::now())
                            .count();
      pollfd p{fd, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) != 1) break;
      char chunk[4096];
      const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
      if (got <= 0) break;
      answer.append(chunk, static_cast<size_t>(got));
    }
  }
  close(fd);
  return answer;
}

}  // namespace toolguard::testing
