// Classifying http(s) URLs by where they go (see web_url.hpp).
#include "web_url.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "core/unicode_text.hpp"

namespace toolguard::detail {
namespace {

bool isAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

bool isPort(std::string_view port) {
  return !port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), isDigit);
}

bool endsWithLabels(std::string_view host, std::string_view suffix) {
  return host == suffix || (host.size() > suffix.size() && host.ends_with(suffix) &&
                            host[host.size() - suffix.size() - 1] == '.');
}

// Names that are not on the public internet (RFC 6761, 6762, 8375, ICANN's
// private-use names and common private ones) and services whose names
// resolve to whatever address they spell.
constexpr std::array<std::string_view, 26> kNotPublic = {
    "localhost", "local",         "internal",   "intranet",   "private", "lan",          "home",
    "corp",      "localdomain",   "arpa",       "test",       "invalid", "example",      "onion",
    "alt",       "home.arpa",     "nip.io",     "sslip.io",   "xip.io",  "localtest.me", "lvh.me",
    "vcap.me",   "lacolhost.com", "traefik.me", "nip.direct", "local.gd"};

bool isPublicName(std::string_view host) {
  const std::string lowered = asciiLowercase(host);
  if (!isDnsName(lowered)) return false;
  const size_t last_dot = lowered.rfind('.');
  const std::string_view last = std::string_view(lowered).substr(last_dot + 1);
  if (last_dot == std::string::npos || last.size() < 2 ||
      !std::all_of(last.begin(), last.end(), isAlpha)) {
    return false;
  }
  return std::none_of(kNotPublic.begin(), kNotPublic.end(),
                      [&](std::string_view suffix) { return endsWithLabels(lowered, suffix); });
}

bool isLoopbackName(std::string_view host) {
  const std::string lowered = asciiLowercase(host);
  return lowered == "localhost" || lowered == "127.0.0.1" || lowered == "[::1]" ||
         lowered == "0.0.0.0";
}

}  // namespace

bool isDnsName(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  size_t start = 0;
  while (start <= name.size()) {
    const size_t end = std::min(name.find('.', start), name.size());
    const std::string_view label = name.substr(start, end - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-' ||
        !std::all_of(label.begin(), label.end(),
                     [](char c) { return isAlpha(c) || isDigit(c) || c == '-'; })) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(),
                    [](char a, char b) { return asciiLower(a) == asciiLower(b); });
}

WebUrlHost classifyWebUrl(std::string_view url, bool scheme_optional) {
  bool has_scheme = false;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (startsWithNoCase(url, scheme)) {
      url.remove_prefix(scheme.size());
      has_scheme = true;
      break;
    }
  }
  if (!has_scheme && !scheme_optional) return WebUrlHost::Unknown;
  if (std::any_of(url.begin(), url.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u <= 0x20 || u == 0x7f || c == '\\';
      })) {
    return WebUrlHost::Unknown;
  }
  const std::string_view authority = url.substr(0, url.find_first_of("/?#"));
  std::string_view host = authority;
  if (host.starts_with('[')) {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return WebUrlHost::Unknown;
    host = authority.substr(0, close + 1);
  } else {
    host = authority.substr(0, authority.find(':'));
  }
  if (host.size() < authority.size()) {
    const std::string_view after = authority.substr(host.size());
    if (!after.starts_with(':') || !isPort(after.substr(1))) return WebUrlHost::Unknown;
  }
  if (isLoopbackName(host)) return WebUrlHost::Loopback;
  if (isPublicName(host)) return WebUrlHost::Public;
  return WebUrlHost::Unknown;
}

}  // namespace toolguard::detail
