#pragma once
// A listening TCP socket on a free loopback port, for tests' own servers.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace toolguard::testing {

/// A listening socket on a free loopback port; `port` says which.
inline int loopbackListener(int& port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t size = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size);
  port = ntohs(a.sin_port);
  listen(fd, 4);
  return fd;
}

}  // namespace toolguard::testing
