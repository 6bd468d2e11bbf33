#pragma once
// The MCP proxy: runs an MCP server as a child process (or reaches one by
// URL) and relays its JSON-RPC messages, judging every tools/call before
// the server sees it.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "toolguard/guard.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {

/// Who is asked when a call needs approval.
enum class McpAskChannel {
  Auto,         ///< the client, by elicitation, when it declared that capability; else the terminal
  Elicitation,  ///< only the client, by elicitation (no capability: deny)
  Terminal,     ///< only the terminal (/dev/tty; none: deny)
  None          ///< nobody: ask is deny
};

/// What the proxy runs and how it judges.
struct McpProxyOptions {
  /// The server's name in tool names (mcp__NAME__TOOL), the audit log and
  /// messages. Must pass mcpServerNameError().
  std::string server_name;
  /// The server's command line (argv[0] is looked up in PATH), spoken to
  /// over stdio. Either this or `url`.
  std::vector<std::string> command;
  /// Instead of a command: the URL of a running server that speaks MCP's
  /// Streamable HTTP transport (http:// to this machine).
  std::string url;
  /// Headers sent to the `url` server with every request: its credentials,
  /// from the proxy's own configuration, never from the client. They are
  /// never written to the audit log, a message or an error.
  std::vector<std::pair<std::string, std::string>> url_headers;
  /// The context of every call: cwd and workspace roots (the paths rules
  /// judge against), agent, session (a random id when empty), model, role.
  /// mcp_server is set to server_name; agent defaults to the client's name
  /// from its initialize request.
  CallContext context;
  McpAskChannel ask = McpAskChannel::Auto;
  /// The longest message accepted from either side, in bytes (without the
  /// newline). Longer ones are refused and reported.
  size_t max_message_bytes = size_t{64} << 20;
  /// How many bytes may wait for a peer that does not read, per direction.
  /// When the queue to the client holds this much, the proxy stops reading
  /// the server (and the client: its answers would queue there too); when
  /// the queue to the server does, it stops reading the client; each resumes
  /// once its queue drains below the bound. A peer that stops reading thus
  /// costs the proxy about this much memory (plus one message), not more.
  size_t max_queued_bytes = size_t{8} << 20;
  /// How long the server gets to exit after its stdin is closed, and again
  /// after SIGTERM, before SIGKILL.
  std::chrono::milliseconds shutdown_grace{2000};
  /// Where the server's tools are pinned (McpToolPins; `toolguard mcp` uses
  /// toolguard's home/mcp-pins). A tool whose listing changed, is new, or
  /// looks like an attack is hidden and its calls refused until a person
  /// approves it. Empty: nothing is pinned.
  std::filesystem::path pins_dir;
};

/// Relays between a client on (client_in, client_out) and the server of
/// `options`, as the MCP stdio transport defines it (one JSON-RPC message or
/// batch per line; the server's stderr is the proxy's). Every tool a
/// tools/list response names is judged as mcp__NAME__TOOL with its schema
/// and annotations (mcpToolInfo), and tools the policy denies outright are
/// removed from the list. Every tools/call is decided by a Guard built from
/// `policy` and `guard_options` (whose approval_handler, when set, is asked
/// in place of the terminal) before it reaches the server: allow forwards
/// it, deny answers it with an error result the model reads, abort with a
/// JSON-RPC error. Returns when the client closes its input (the server is
/// then stopped) or the server exits (pending requests get errors): the
/// server's exit code, or 0 when the proxy stopped it. Throws
/// std::system_error when the server cannot be started and
/// std::invalid_argument for bad options.
int runMcpProxy(int client_in, int client_out, Policy policy, GuardOptions guard_options,
                const McpProxyOptions& options);

}  // namespace toolguard
