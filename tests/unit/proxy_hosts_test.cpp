// The sandbox proxy's host allow-list: the policy's patterns, matching a
// request's host and port, and which resolved addresses count as public
// (every private, loopback, link-local and reserved range, in IPv4 and in
// every IPv6 form that carries an IPv4 address, generated).
#include "sandbox/proxy_hosts.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

#include <random>
#include <string>
#include <vector>

namespace toolguard::sandbox {
namespace {

bool publicV4(uint32_t address) {
  sockaddr_in v4{};
  v4.sin_family = AF_INET;
  v4.sin_addr.s_addr = htonl(address);
  return isPublicAddress(reinterpret_cast<const sockaddr*>(&v4));
}

bool publicV6(const std::string& text) {
  sockaddr_in6 v6{};
  v6.sin6_family = AF_INET6;
  EXPECT_EQ(inet_pton(AF_INET6, text.c_str(), &v6.sin6_addr), 1) << text;
  return isPublicAddress(reinterpret_cast<const sockaddr*>(&v6));
}

// A pattern that must parse.
HostPattern pattern(const std::string& text) {
  Expected<HostPattern> parsed = parseHostPattern(text);
  EXPECT_TRUE(parsed) << text << ": " << parsed.error();
  return parsed ? *parsed : HostPattern{};
}

std::string dotted(uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
         std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255);
}

TEST(ProxyHosts, PatternsAreReadStrictly) {
  const HostPattern name = pattern("Registry.NPMJS.org");
  EXPECT_EQ(name.host, "registry.npmjs.org");
  EXPECT_EQ(name.port, 0);
  EXPECT_FALSE(name.subdomains);
  EXPECT_FALSE(name.names_address);
  const HostPattern wildcard = pattern("*.github.com:8443");
  EXPECT_TRUE(wildcard.subdomains);
  EXPECT_EQ(wildcard.port, 8443);
  EXPECT_TRUE(pattern("127.0.0.1:5432").names_address);
  EXPECT_TRUE(pattern("[::1]:3000").names_address);
  EXPECT_EQ(pattern("[::1]:3000").host, "::1");
  EXPECT_TRUE(pattern("localhost:8080").names_address);
  for (const char* bad :
       {"", "*", "*.com", "*.10.0.0.1", "exa mple.com", "example.com:", "example.com:0",
        "example.com:65536", "example.com:8o", "user@example.com", "http://example.com",
        "example.com/path", "[::1", "[::1]x", "[nothing]:80", "-example.com", "ex_ample.com",
        "example..com"}) {
    EXPECT_FALSE(parseHostPattern(bad)) << bad;
  }
}

TEST(ProxyHosts, AHostMatchesItsNameOrBelowAndItsPorts) {
  std::vector<HostPattern> patterns = {pattern("example.com"), pattern("*.github.com"),
                                       pattern("127.0.0.1:8080")};
  EXPECT_NE(matchHost(patterns, "example.com", 443), nullptr);
  EXPECT_NE(matchHost(patterns, "example.com", 80), nullptr);
  EXPECT_EQ(matchHost(patterns, "example.com", 8080), nullptr) << "no port named: 80 and 443";
  EXPECT_EQ(matchHost(patterns, "www.example.com", 443), nullptr);
  EXPECT_EQ(matchHost(patterns, "badexample.com", 443), nullptr);
  EXPECT_NE(matchHost(patterns, "api.github.com", 443), nullptr);
  EXPECT_NE(matchHost(patterns, "a.b.github.com", 443), nullptr);
  EXPECT_EQ(matchHost(patterns, "github.com", 443), nullptr) << "*. is below the name only";
  EXPECT_EQ(matchHost(patterns, "evilgithub.com", 443), nullptr);
  EXPECT_EQ(matchHost(patterns, "github.com.evil.example", 443), nullptr);
  EXPECT_NE(matchHost(patterns, "127.0.0.1", 8080), nullptr);
  EXPECT_EQ(matchHost(patterns, "127.0.0.1", 8081), nullptr);
  EXPECT_EQ(normalizedHost("Example.COM."), "example.com");
  EXPECT_EQ(normalizedHost("[::1]"), "::1");
  for (const char* odd : {"exa mple.com", "a@b", "%65xample.com", "example.com..", "[zz]", "",
                          "example.com\\", "ex\xc3\xa4mple.com"}) {
    EXPECT_EQ(normalizedHost(odd), "") << odd;
  }
}

// Every range that is not the public internet, sampled at its edges and at
// random inside, in IPv4 and in the IPv6 forms that carry an IPv4 address.
TEST(ProxyHosts, NoPrivateLoopbackOrReservedAddressIsPublic) {
  struct Range {
    uint32_t network;
    int bits;
  };
  const std::vector<Range> not_public = {
      {0x00000000, 8},  {0x0a000000, 8},  {0x64400000, 10}, {0x7f000000, 8},  {0xa9fe0000, 16},
      {0xac100000, 12}, {0xc0000000, 24}, {0xc0000200, 24}, {0xc0a80000, 16}, {0xc6120000, 15},
      {0xc6336400, 24}, {0xcb007100, 24}, {0xe0000000, 4},  {0xf0000000, 4}};
  std::mt19937 random(42);
  for (const Range& range : not_public) {
    const uint32_t size = range.bits == 0 ? 0 : uint32_t{1} << (32 - range.bits);
    std::vector<uint32_t> samples = {range.network, range.network + size - 1};
    for (int i = 0; i < 50; ++i) samples.push_back(range.network + random() % size);
    for (uint32_t a : samples) {
      EXPECT_FALSE(publicV4(a)) << dotted(a);
      for (const std::string prefix : {"::ffff:", "64:ff9b::", "::"}) {
        EXPECT_FALSE(publicV6(prefix + dotted(a))) << prefix << dotted(a);
      }
    }
  }
  EXPECT_FALSE(publicV4(0xa9fea9fe)) << "the cloud metadata address";
  for (uint32_t a : {0x08080808u, 0x01010101u, 0x5db8d822u, 0xac0f0000u, 0xac200000u, 0x64800000u,
                     0xa9fd0000u, 0xc0a90000u}) {
    EXPECT_TRUE(publicV4(a)) << dotted(a);
    EXPECT_TRUE(publicV6("::ffff:" + dotted(a))) << dotted(a);
  }
  for (const char* v6 : {"::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1",
                         "2001:db8::1", "2002:a00:1::1", "2001::1", "100::1"}) {
    EXPECT_FALSE(publicV6(v6)) << v6;
  }
  for (const char* v6 : {"2606:4700:4700::1111", "2a00:1450:4001::200e"}) {
    EXPECT_TRUE(publicV6(v6)) << v6;
  }
}

}  // namespace
}  // namespace toolguard::sandbox
