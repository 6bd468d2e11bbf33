#pragma once
// Internal: `toolguard mcp --listen HOST:PORT`: the guarded tools served
// over MCP's Streamable HTTP transport at /mcp. Callers show an agent token
// of the service's store (`toolguard serve token add --role agent`); the
// Host and Origin of every request must name this service (no DNS
// rebinding); bodies, sessions and open streams are bounded. Each session
// is a gateway of its own (its servers started for it).
#include <chrono>
#include <string>
#include <vector>

#include "toolguard/mcp_gateway.hpp"

namespace toolguard::serve {

/// Where and how the face listens.
struct McpHttpFaceOptions {
  std::string listen = "127.0.0.1:8788";  ///< HOST:PORT (port 0: a free one)
  std::string store = "file";             ///< where the tokens are: "file" or a postgresql:// URL
  std::string home;                       ///< toolguard's home for the file store
  /// Origins (scheme://host[:port]) a browser's request may come from,
  /// besides this service's own; and the host names it may be reached by
  /// besides its address and localhost.
  std::vector<std::string> allowed_origins;
  size_t max_sessions = 64;                     ///< sessions open at once; past it 503
  size_t max_streams = 512;                     ///< event streams open at once; past it 503
  size_t max_body_bytes = size_t{4} << 20;      ///< larger POST bodies get 413
  double requests_per_second_per_token = 2000;  ///< past it, 429
  std::chrono::seconds session_idle{1800};      ///< a session unused this long (no stream) ends
  std::chrono::seconds keep_alive{15};          ///< a comment on every open stream this often
  std::string tls_certificate, tls_key;         ///< HTTPS when both are set
};

/// Serves `gateway` (one session of it per client) until SIGTERM, SIGINT
/// or SIGHUP. Prints "listening on http://HOST:PORT/mcp" on stdout once
/// ready. Returns the exit code; throws std::runtime_error when it cannot
/// listen or open the store.
int serveMcpOverHttp(const McpHttpFaceOptions& options, const McpGatewayOptions& gateway);

}  // namespace toolguard::serve
