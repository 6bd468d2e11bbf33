// The proxy's host allow-list (see proxy_hosts.hpp).
#include "sandbox/proxy_hosts.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>

#include "core/unicode_text.hpp"
#include "core/web_url.hpp"

namespace toolguard::sandbox {
namespace {

bool isIpv4(const std::string& text) {
  in_addr address{};
  return ::inet_pton(AF_INET, text.c_str(), &address) == 1;
}

bool isIpv6(const std::string& text) {
  in6_addr address{};
  return ::inet_pton(AF_INET6, text.c_str(), &address) == 1;
}

// "443" -> 443; -1 unless a port of 1 to 65535 written in digits.
int portNumber(std::string_view text) {
  if (text.empty() || text.size() > 5) return -1;
  int port = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    port = port * 10 + (c - '0');
  }
  return port >= 1 && port <= 65535 ? port : -1;
}

bool inIpv4(uint32_t address, uint32_t network, int bits) {
  const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
  return (address & mask) == (network & mask);
}

bool publicIpv4(uint32_t a) {
  struct Range {
    uint32_t network;
    int bits;
  };
  static constexpr Range kNotPublic[] = {
      {0x00000000, 8},  {0x0a000000, 8},  {0x64400000, 10}, {0x7f000000, 8},  {0xa9fe0000, 16},
      {0xac100000, 12}, {0xc0000000, 24}, {0xc0000200, 24}, {0xc0a80000, 16}, {0xc6120000, 15},
      {0xc6336400, 24}, {0xcb007100, 24}, {0xe0000000, 4},  {0xf0000000, 4}};
  return std::none_of(std::begin(kNotPublic), std::end(kNotPublic),
                      [&](const Range& r) { return inIpv4(a, r.network, r.bits); });
}

}  // namespace

std::string normalizedHost(std::string_view host) {
  std::string text(host);
  std::transform(text.begin(), text.end(), text.begin(), detail::asciiLower);
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
    return isIpv6(text) ? text : "";
  }
  if (text.ends_with('.')) text.pop_back();
  if (isIpv4(text) || detail::isDnsName(text)) return text;
  return "";
}

Expected<HostPattern> parseHostPattern(std::string_view text) {
  HostPattern pattern;
  std::string_view host = text;
  std::string_view port;
  if (host.starts_with('[')) {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return fail("'" + std::string(text) + "': no closing ]");
    port = host.substr(close + 1);
    host = host.substr(0, close + 1);
    if (!port.empty() && !port.starts_with(':')) {
      return fail("'" + std::string(text) + "': expected :PORT after the address");
    }
    if (!port.empty()) port.remove_prefix(1);
  } else if (const size_t colon = host.find(':'); colon != std::string_view::npos) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
    if (port.empty()) return fail("'" + std::string(text) + "': an empty port");
  }
  if (!port.empty() || text.ends_with(':')) {
    pattern.port = portNumber(port);
    if (pattern.port < 0) {
      return fail("'" + std::string(text) + "': the port is not a number from 1 to 65535");
    }
  }
  if (host.starts_with("*.")) {
    pattern.subdomains = true;
    host.remove_prefix(2);
  }
  pattern.host = normalizedHost(host);
  if (pattern.host.empty()) {
    return fail("'" + std::string(text) +
                "': expected a host name, *.name, or an IP address, with an optional :PORT");
  }
  const bool address = isIpv4(pattern.host) || isIpv6(pattern.host);
  if (pattern.subdomains && address) {
    return fail("'" + std::string(text) + "': *. goes only before a name");
  }
  if (pattern.subdomains && pattern.host.find('.') == std::string::npos) {
    return fail("'" + std::string(text) + "': *. before a top-level name allows too much");
  }
  pattern.names_address = address || pattern.host == "localhost";
  return pattern;
}

const HostPattern* matchHost(const std::vector<HostPattern>& patterns, std::string_view host,
                             int port) {
  for (const HostPattern& pattern : patterns) {
    const bool port_ok = pattern.port == 0 ? (port == 80 || port == 443) : port == pattern.port;
    if (!port_ok) continue;
    if (pattern.subdomains) {
      if (host.size() > pattern.host.size() + 1 && host.ends_with(pattern.host) &&
          host[host.size() - pattern.host.size() - 1] == '.') {
        return &pattern;
      }
    } else if (host == pattern.host) {
      return &pattern;
    }
  }
  return nullptr;
}

bool isPublicAddress(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(address);
    return publicIpv4(ntohl(v4->sin_addr.s_addr));
  }
  if (address->sa_family != AF_INET6) return false;
  const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
  const uint8_t* b = a.s6_addr;
  // IPv4 mapped (::ffff:0:0/96), compatible (::/96) or NAT64 (64:ff9b::/96):
  // judged as the IPv4 address they carry.
  static constexpr uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  static constexpr uint8_t kNat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
  static constexpr uint8_t kZero[12] = {};
  if (std::memcmp(b, kMapped, 12) == 0 || std::memcmp(b, kNat64, 12) == 0 ||
      std::memcmp(b, kZero, 12) == 0) {
    const uint32_t v4 = (uint32_t{b[12]} << 24) | (uint32_t{b[13]} << 16) | (uint32_t{b[14]} << 8) |
                        uint32_t{b[15]};
    return publicIpv4(v4);
  }
  // Only global unicast (2000::/3) is public, less documentation
  // (2001:db8::/32), Teredo and ORCHID-like 2001::/23 and 6to4 (2002::/16),
  // which carry other addresses.
  if ((b[0] & 0xe0) != 0x20) return false;
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02) return false;
  if (b[0] == 0x20 && b[1] == 0x02) return false;
  return true;
}

}  // namespace toolguard::sandbox
