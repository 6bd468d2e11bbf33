#pragma once
// Internal: the options of `toolguard mcp`, shared by its single-server
// proxy (mcp_command.cpp) and its gateway (mcp_gateway_command.cpp).
#include <filesystem>
#include <string>
#include <vector>

#include "front/guard_options.hpp"
#include "front/policy_options.hpp"
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
};

/// The ask channel named by --ask.
McpAskChannel askChannelNamed(const std::string& name);

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
