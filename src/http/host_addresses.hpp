#pragma once
// Internal: the addresses a host name or a numeric address stands for, to
// connect to a service over TCP. The library asks the C library
// (host_addresses.cpp, getaddrinfo and NSS); the statically linked command
// links its own lookup instead (src/cli/static_lookups.cpp: numeric
// addresses, /etc/hosts, then DNS through libresolv), so that it never
// depends on NSS modules of the glibc it was built with.

#include <sys/socket.h>

#include <string>
#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// One address to connect to.
struct HostAddress {
  sockaddr_storage address{};
  socklen_t size = 0;
};

/// The addresses of `host` (a name or a numeric address) on TCP `port` (a
/// number), in the order to try them (never none); fails, saying why.
Expected<std::vector<HostAddress>> hostAddresses(const std::string& host, const std::string& port);

}  // namespace toolguard::detail
