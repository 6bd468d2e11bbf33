#pragma once
// Parsing an endpoint's base URL ("http://127.0.0.1:8080/v1").

#include <string>
#include <string_view>

#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// A base URL taken apart.
struct EndpointUrl {
  std::string scheme;       ///< "http" or "https"
  std::string host;         ///< a name or an address (IPv6 without brackets)
  int port = 0;             ///< given, or 80 / 443
  std::string path_prefix;  ///< "" or "/v1" (no trailing "/")

  /// "scheme://host:port", as httplib::Client takes it.
  std::string origin() const;
};

/// Parses http(s)://host[:port][/path]; fails, saying why, for anything
/// else: other schemes, user info, a query or fragment, spaces or control
/// characters, a bad port.
Expected<EndpointUrl> parseEndpointUrl(std::string_view url);

}  // namespace toolguard::detail
