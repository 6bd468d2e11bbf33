#pragma once
// Internal: a server reached over MCP's Streamable HTTP transport, as the
// proxy's Upstream (mcp/upstream.hpp): each message the proxy writes is
// POSTed; what comes back (a JSON body, or an event stream carrying the
// answer and the server's requests and notifications before it) is handed
// to the proxy as lines, message by message; the server's own stream (GET)
// is opened once the session is initialized and resumed with Last-Event-ID
// when it breaks; the session ends with DELETE.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "upstream.hpp"

namespace toolguard::mcp {

/// Where the server is and how to reach it.
struct HttpUpstreamOptions {
  /// https://HOST[:PORT]/PATH (TLS through the toolguard-http helper), or
  /// http:// on this machine (localhost, 127.0.0.0/8, [::1]).
  std::string url;
  /// Sent with every request: the server's credentials, from the proxy's
  /// own configuration. Never written to a log or an error.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string server_name;  ///< for messages
  size_t max_message_bytes = size_t{64} << 20;
  std::function<void(const std::string&)> log;
};

/// Checks the URL (a scheme and host this transport may use); throws
/// std::invalid_argument saying why not. Starts nothing until the proxy
/// writes the first message.
std::unique_ptr<Upstream> httpUpstream(HttpUpstreamOptions options);

}  // namespace toolguard::mcp
