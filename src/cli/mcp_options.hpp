#pragma once
// Internal: the options of `toolguard mcp`, shared by its single-server
// proxy (mcp_command.cpp) and its gateway (mcp_gateway_command.cpp).
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "front/guard_options.hpp"
#include "front/policy_options.hpp"
#include "toolguard/mcp_gateway.hpp"
#include "toolguard/mcp_proxy.hpp"

namespace toolguard::cli {

/// What `toolguard mcp` was given.
struct McpOptions {
  front::PolicyOptions policy;
  front::GuardCliOptions guard;
  std::string name;
  std::vector<std::string> workspaces;
  std::string ask = "auto";
  std::string ask_server;  // --ask-server URL: asks go to toolguard serve's queue
  size_t max_message_bytes = size_t{64} << 20;
  int shutdown_grace_ms = 2000;
  bool sandbox = false;  // --sandbox: the server runs under `toolguard sandbox`
  std::vector<std::string> command;
  std::string url;                   // --url: a Streamable HTTP server instead of a command
  std::vector<std::string> headers;  // --header "Name: value" for the --url server
  std::string gateway;               // --gateway FILE: several servers behind one endpoint
  // --listen HOST:PORT: serve over Streamable HTTP (in the toolguard-serve program)
  std::string listen;
  std::string store = "file";                // where --listen finds its tokens
  std::vector<std::string> allowed_origins;  // --allow-origin: browsers' pages besides our own
  size_t max_sessions = 64;
  size_t max_streams = 512;
  size_t max_body = size_t{4} << 20;
  double rate = 2000;  // --rate: requests a second one token may make
  std::string tls_certificate, tls_key;
};

/// What serves `toolguard mcp --listen`: set by the toolguard-serve program
/// (the toolguard command hands such command lines to it, so a hook never
/// loads the HTTP server). Serves `gateway` until stopped; returns the exit code.
using McpHttpFace = std::function<int(const McpOptions&, const McpGatewayOptions& gateway)>;
void setMcpHttpFace(McpHttpFace face);

/// Runs `gateway` on stdio, or with --listen on the HTTP face.
int runGatewayFront(const McpOptions& o, McpGatewayOptions gateway);

/// The toolguard command that confines a server (`toolguard sandbox`): this
/// program, or the command that handed the command line over.
std::string sandboxBinary();

/// The ask channel named by --ask.
McpAskChannel askChannelNamed(const std::string& name);
/// The ask channel of `o`: --ask, where `auto` under --listen is the
/// client's elicitation alone (a service has no terminal).
McpAskChannel askChannelFor(const McpOptions& o);

/// Sets `context`'s cwd and workspace roots from `workspaces` (absolute,
/// normalized; the first is the cwd), or the current directory.
void setWorkspaces(CallContext& context, const std::vector<std::string>& workspaces);

/// The guard options of a proxy's or gateway's calls: the base options,
/// asks to --ask-server (which then takes the terminal's place in `ask`),
/// the LLM validator for `policy`. Throws std::runtime_error for a bad
/// option.
GuardOptions mcpGuardOptions(const McpOptions& o, const Policy& policy,
                             const std::vector<std::filesystem::path>& project_roots,
                             McpAskChannel& ask);

/// Runs `toolguard mcp --gateway FILE`.
int runMcpGatewayCommand(const McpOptions& o);

}  // namespace toolguard::cli
