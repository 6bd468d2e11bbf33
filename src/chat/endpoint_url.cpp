// Base URLs of chat endpoints.
#include "endpoint_url.hpp"

#include <cctype>

#include "core/web_url.hpp"

namespace toolguard::detail {
namespace {

bool validHostChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

// Splits "host[:port]" or "[v6]:port".
bool parseAuthority(std::string_view authority, EndpointUrl& out) {
  std::string_view host = authority;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return false;
    host = authority.substr(1, close - 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
      if (port.empty()) return false;
    }
    for (char c : host) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
    }
  } else {
    size_t colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
      if (port.empty()) return false;
    }
    for (char c : host) {
      if (!validHostChar(c)) return false;
    }
  }
  if (host.empty() || port.size() > 5) return false;
  int number = 0;
  for (char c : port) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    number = number * 10 + (c - '0');
  }
  if (!port.empty() && (number < 1 || number > 65535)) return false;
  out.host.assign(host);
  if (!port.empty()) out.port = number;
  return true;
}

}  // namespace

std::string EndpointUrl::origin() const {
  bool v6 = host.find(':') != std::string::npos;
  return scheme + "://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Expected<EndpointUrl> parseEndpointUrl(std::string_view url) {
  const auto invalid = [&] {
    return fail("invalid base URL \"" + std::string(url) +
                "\": expected http://host[:port][/path] or https://...");
  };
  EndpointUrl out;
  std::string_view rest;
  if (startsWithNoCase(url, "http://")) {
    out.scheme = "http";
    out.port = 80;
    rest = url.substr(7);
  } else if (startsWithNoCase(url, "https://")) {
    out.scheme = "https";
    out.port = 443;
    rest = url.substr(8);
  } else {
    return invalid();
  }
  for (char c : rest) {
    auto byte = static_cast<unsigned char>(c);
    if (byte <= ' ' || byte == 0x7f || c == '?' || c == '#' || c == '@' || c == '\\') {
      return invalid();
    }
  }
  size_t slash = rest.find('/');
  if (!parseAuthority(rest.substr(0, slash), out)) return invalid();
  if (slash != std::string_view::npos) out.path_prefix.assign(rest.substr(slash));
  while (!out.path_prefix.empty() && out.path_prefix.back() == '/') out.path_prefix.pop_back();
  return out;
}

}  // namespace toolguard::detail
