#pragma once
// The MCP gateway: several MCP servers (commands over stdio, URLs over
// Streamable HTTP) behind one client connection. The client sees one server
// whose tools are named SERVER__TOOL; every call is routed to its server and
// judged there exactly as `toolguard mcp` judges a single server (the same
// policy rules for mcp__SERVER__TOOL, hidden tools, pins, asks, redaction and
// audit), with one session memory shared by all of them.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "toolguard/guard.hpp"
#include "toolguard/mcp_proxy.hpp"
#include "toolguard/policy.hpp"

namespace toolguard {

/// One server behind the gateway.
struct McpGatewayServer {
  /// Its name (the SERVER of SERVER__TOOL; no "__"), its command or URL,
  /// the URL's headers, the call context, how asks go, where pins are kept.
  McpProxyOptions proxy;
  /// The policy its calls are judged by (the gateway's policy and the
  /// server's own section).
  Policy policy;
  /// Its guard's options (the audit log, approvals, an approval handler).
  GuardOptions guard_options;
  /// Stopped after this long without a request in flight, and started
  /// again by the next call that needs it; zero: kept running while the
  /// client is connected. Servers are always started on demand: by the
  /// first listing or call that needs them.
  std::chrono::milliseconds idle_stop{0};
};

/// The servers and the limits of one gateway.
struct McpGatewayOptions {
  std::vector<McpGatewayServer> servers;
  /// The client's session (shared by every server's guard: what one server
  /// brought counts for calls to another); a random id when empty.
  std::string session;
  /// The longest message accepted from any side, in bytes.
  size_t max_message_bytes = size_t{64} << 20;
  /// How many bytes may wait for a peer that does not read, per direction.
  size_t max_queued_bytes = size_t{8} << 20;
  /// How long a server gets to exit after its stdin is closed (and again
  /// after SIGTERM) before it is killed.
  std::chrono::milliseconds shutdown_grace{2000};
  /// How long a server may take to start and answer `initialize`; past it
  /// the requests waiting for it get errors.
  std::chrono::milliseconds start_timeout{60000};
  /// How long a listing waits for a server's tools before it is sent
  /// without them.
  std::chrono::milliseconds list_timeout{30000};
  /// One server, as it is: its own initialize answer, its tools under
  /// their own names, every method relayed (resources, prompts, ...). Only
  /// with exactly one server (how `toolguard mcp --listen` serves a single
  /// server over HTTP).
  bool flat = false;
  /// The version the gateway gives in its serverInfo.
  std::string version = "0.1.0";
};

/// Why a gateway's options cannot run ("" when they can): no servers, a
/// bad or repeated name, a server with neither or both a command and a URL,
/// `flat` with more than one server.
std::string mcpGatewayOptionsError(const McpGatewayOptions& options);

/// Relays between a client on (client_in, client_out), speaking MCP's stdio
/// transport, and the gateway's servers. The client gets `tools` (list and
/// call) and `ping`; a listing holds every server's tools that its policy
/// and pins let through, each named SERVER__TOOL; a server that cannot be
/// started or ends is left out of listings and its calls get errors, while
/// the others go on. Returns 0 when the client closed its input (every
/// server is then stopped). Throws std::invalid_argument for bad options.
int runMcpGateway(int client_in, int client_out, McpGatewayOptions options);

}  // namespace toolguard
