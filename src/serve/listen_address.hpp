#pragma once
// Internal: the --listen address of the service's programs (`toolguard
// serve`, `toolguard mcp --listen`): read from HOST:PORT, and shown back.
#include <string>
#include <utility>

namespace toolguard::serve {

/// HOST:PORT ([::1]:PORT for IPv6) as host and port. Throws
/// std::runtime_error saying what --listen takes.
std::pair<std::string, int> listenAddress(const std::string& listen);

/// `host` as a URL names it: an IPv6 address in brackets.
std::string hostInUrl(const std::string& host);

}  // namespace toolguard::serve
