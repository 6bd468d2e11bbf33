#pragma once
// The hosts a sandboxed command may reach through toolguard's proxy
// (`sandbox.hosts`): reading the policy's patterns, matching a request's
// host and port against them, and telling public addresses from the
// machine's own and private ones.

#include <sys/socket.h>

#include <string>
#include <string_view>
#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard::sandbox {

/// One entry of `sandbox.hosts`.
struct HostPattern {
  std::string host;         ///< lower case; an IPv6 address without brackets
  bool subdomains = false;  ///< `*.example.com`: any name below example.com (not itself)
  int port = 0;             ///< 0: ports 80 and 443
  /// An address written out (`127.0.0.1:8080`, `[::1]:3000`) or `localhost`:
  /// the entry names a place itself, so it may be a private one.
  bool names_address = false;
};

/// Reads `example.com`, `*.example.com`, `example.com:8443`, `10.1.2.3:5432`,
/// `[::1]:3000` or `localhost:8080`; an error says what is wrong.
Expected<HostPattern> parseHostPattern(std::string_view text);

/// A request's host made comparable: lower case, one trailing dot dropped,
/// brackets of an IPv6 address dropped. Empty when it is neither a DNS name
/// (letters, digits, `-`, `.`) nor an IP address.
std::string normalizedHost(std::string_view host);

/// The first pattern that lets `host` (normalized) and `port` through, or
/// nullptr.
const HostPattern* matchHost(const std::vector<HostPattern>& patterns, std::string_view host,
                             int port);

/// True for an address on the public internet: not loopback, private
/// (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10,
/// the cloud metadata address among them), shared (100.64/10), unspecified,
/// multicast, broadcast, reserved or documentation ranges, nor an IPv4 one
/// mapped or translated into IPv6.
bool isPublicAddress(const sockaddr* address);

}  // namespace toolguard::sandbox
