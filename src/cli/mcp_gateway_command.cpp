// `toolguard mcp --gateway FILE`: the servers a gateway file names, behind
// one client on stdio. Each server's calls are judged with the policy of its
// first workspace plus its own section of the file.
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/gateway_file.hpp"
#include "cli/mcp_options.hpp"
#include "cli/running_binary.hpp"
#include "cli/sandboxed_command.hpp"
#include "toolguard/mcp_gateway.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::cli {
namespace {

// What the single-server options would mean here, said as an error.
std::string gatewayConflict(const McpOptions& o) {
  if (!o.command.empty()) return "a command goes in the gateway file, not after --";
  if (!o.url.empty()) return "--url goes in the gateway file (url:)";
  if (!o.headers.empty()) return "--header goes in the gateway file (headers:)";
  if (!o.name.empty()) return "--name goes in the gateway file (each server's key)";
  if (o.sandbox) return "--sandbox goes in the gateway file (sandbox: true)";
  return "";
}

McpHttpFace& httpFace() {
  static McpHttpFace face;
  return face;
}

}  // namespace

void setMcpHttpFace(McpHttpFace face) {
  httpFace() = std::move(face);
}

std::string sandboxBinary() {
  const char* command = std::getenv("TOOLGUARD_COMMAND_PATH");
  return command != nullptr && command[0] == '/' ? command : runningBinary();
}

int runGatewayFront(const McpOptions& o, McpGatewayOptions gateway) {
  if (o.listen.empty()) return runMcpGateway(STDIN_FILENO, STDOUT_FILENO, std::move(gateway));
  if (!httpFace()) throw std::runtime_error("--listen is served by the toolguard-serve program");
  return httpFace()(o, gateway);
}

int runMcpGatewayCommand(const McpOptions& o) {
  if (std::string conflict = gatewayConflict(o); !conflict.empty()) {
    std::cerr << "toolguard mcp: --gateway: " << conflict << "\n";
    return kExitError;
  }
  try {
    const GatewayFile file = readGatewayFile(o.gateway);
    front::EngineProvider engines(o.policy);
    McpGatewayOptions gateway;
    gateway.max_message_bytes = o.max_message_bytes;
    gateway.shutdown_grace = std::chrono::milliseconds(o.shutdown_grace_ms);
    for (const GatewayFileServer& entry : file.servers) {
      McpGatewayServer server;
      McpProxyOptions& proxy = server.proxy;
      proxy.server_name = entry.name;
      proxy.url = entry.url;
      proxy.url_headers = entry.headers;
      proxy.ask = askChannelFor(o);
      proxy.pins_dir = toolguardHome(o.guard.home) + "/mcp-pins";
      proxy.max_message_bytes = o.max_message_bytes;
      proxy.shutdown_grace = gateway.shutdown_grace;
      setWorkspaces(proxy.context, entry.workspaces.empty() ? o.workspaces : entry.workspaces);
      proxy.command = entry.command;
      if (entry.sandbox) {
        std::vector<std::string> served = {proxy.context.cwd};
        served.insert(served.end(), proxy.context.workspace_roots.begin(),
                      proxy.context.workspace_roots.end());
        proxy.command = sandboxedArguments(sandboxBinary(), served, o.policy, entry.command);
      }
      const front::ProjectEngine& project = engines.forCwd(proxy.context.cwd);
      server.policy = project.engine.policy();
      mergeServerPolicy(server.policy, file, entry);
      server.guard_options = mcpGuardOptions(o, server.policy, project.project_roots, proxy.ask);
      server.idle_stop = entry.idle_stop;
      gateway.servers.push_back(std::move(server));
    }
    return runGatewayFront(o, std::move(gateway));
  } catch (const PolicyError& e) {
    std::cerr << e.what() << "\n";
    return kExitError;
  } catch (const std::exception& e) {
    std::cerr << "toolguard mcp: " << e.what() << "\n";
    return kExitError;
  }
}

}  // namespace toolguard::cli
