// `toolguard mcp`: runs an MCP server behind the guarding proxy.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/mcp_options.hpp"
#include "cli/option_flags.hpp"
#include "cli/running_binary.hpp"
#include "cli/sandboxed_command.hpp"
#include "cli/upstream_headers.hpp"
#include "front/guard_options.hpp"
#include "front/policy_options.hpp"
#include "toolguard/mcp_proxy.hpp"
#include "toolguard/mcp_tools.hpp"

namespace toolguard::cli {
namespace {

// A server name from its URL: the host's first label (`localhost`).
std::string serverNameFromUrl(const std::string& url) {
  std::string host = url.substr(url.find("//") == std::string::npos ? 0 : url.find("//") + 2);
  host = host.substr(0, host.find_first_of(":/?[]"));
  if (host.empty() || std::isdigit(static_cast<unsigned char>(host[0])) != 0) return "server";
  host = host.substr(0, host.find('.'));
  return mcpServerNameError(host).empty() ? host : "server";
}

// Programs that start the real server named by a later argument.
bool isLauncher(const std::string& program) {
  static const char* const kLaunchers[] = {"npx",  "node", "uvx", "uv",   "python", "python3",
                                           "pipx", "bunx", "bun", "deno", "docker", "podman",
                                           "sh",   "bash", "env", "pnpm", "yarn",   "npm"};
  for (const char* launcher : kLaunchers) {
    if (program == launcher) return true;
  }
  return false;
}

/// A server name from its command line: the program's base name, or for a
/// launcher (npx, uvx, node, docker, ...) the first argument that names the
/// package or script (`@modelcontextprotocol/server-filesystem@1.0` ->
/// `server-filesystem`), cut to what mcpServerNameError() accepts.
std::string serverNameFromCommand(const std::vector<std::string>& command) {
  std::string chosen = std::filesystem::path(command[0]).filename().string();
  if (isLauncher(chosen)) {
    for (size_t i = 1; i < command.size(); ++i) {
      const std::string& arg = command[i];
      if (arg.empty() || arg[0] == '-' || arg == "run" || arg == "exec" || arg == "dlx" ||
          arg == "x" || arg.find('=') != std::string::npos) {
        continue;
      }
      chosen = arg;
      break;
    }
  }
  if (size_t slash = chosen.find_last_of('/'); slash != std::string::npos) {
    chosen = chosen.substr(slash + 1);
  }
  if (size_t at = chosen.find('@', 1); at != std::string::npos) chosen.resize(at);
  for (const char* suffix : {".js", ".mjs", ".py", ".ts"}) {
    if (chosen.size() > std::strlen(suffix) && chosen.ends_with(suffix)) {
      chosen.resize(chosen.size() - std::strlen(suffix));
    }
  }
  std::string name;
  for (char c : chosen) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
    char next = ok ? c : '-';
    if (next == '_' && !name.empty() && name.back() == '_') continue;
    name.push_back(next);
  }
  if (name.size() > 64) name.resize(64);
  return name.empty() || !mcpServerNameError(name).empty() ? "server" : name;
}

int runMcp(const McpOptions& o) {
  if (!o.gateway.empty()) return runMcpGatewayCommand(o);
  McpProxyOptions proxy;
  if (o.command.empty() == o.url.empty()) {
    std::cerr << "toolguard mcp: give the server's command after --, or its --url (one of the "
                 "two)\n";
    return kExitError;
  }
  if (!o.url.empty() && o.sandbox) {
    std::cerr << "toolguard mcp: --sandbox confines a command the proxy starts; a server reached "
                 "by --url runs elsewhere\n";
    return kExitError;
  }
  if (o.url.empty() && !o.headers.empty()) {
    std::cerr << "toolguard mcp: --header goes with --url\n";
    return kExitError;
  }
  proxy.command = o.command;
  proxy.url = o.url;
  Expected<std::vector<std::pair<std::string, std::string>>> headers = upstreamHeaders(o.headers);
  if (!headers) {
    std::cerr << "toolguard mcp: " << headers.error() << "\n";
    return kExitError;
  }
  proxy.url_headers = std::move(*headers);
  proxy.server_name = !o.name.empty()  ? o.name
                      : !o.url.empty() ? serverNameFromUrl(o.url)
                                       : serverNameFromCommand(o.command);
  if (std::string error = mcpServerNameError(proxy.server_name); !error.empty()) {
    std::cerr << "toolguard mcp: --name " << proxy.server_name << ": " << error << "\n";
    return kExitError;
  }
  proxy.ask = askChannelFor(o);
  proxy.pins_dir = toolguardHome(o.guard.home) + "/mcp-pins";
  proxy.max_message_bytes = o.max_message_bytes;
  proxy.shutdown_grace = std::chrono::milliseconds(o.shutdown_grace_ms);
  setWorkspaces(proxy.context, o.workspaces);
  if (o.sandbox) {
    // The server may write only in the directories it serves; the policy's
    // sandbox: section says the rest (docs/sandbox.md).
    std::vector<std::string> served = {proxy.context.cwd};
    served.insert(served.end(), proxy.context.workspace_roots.begin(),
                  proxy.context.workspace_roots.end());
    try {
      proxy.command = sandboxedArguments(sandboxBinary(), served, o.policy, o.command);
    } catch (const std::exception& e) {
      std::cerr << "toolguard mcp: --sandbox: " << e.what() << "\n";
      return kExitError;
    }
  }
  try {
    front::EngineProvider engines(o.policy);
    const front::ProjectEngine& project = engines.forCwd(proxy.context.cwd);
    GuardOptions guard =
        mcpGuardOptions(o, project.engine.policy(), project.project_roots, proxy.ask);
    if (!o.listen.empty()) {
      // Over HTTP: the one server, as it is, for each client's session.
      McpGatewayOptions gateway;
      gateway.flat = true;
      gateway.max_message_bytes = proxy.max_message_bytes;
      gateway.shutdown_grace = proxy.shutdown_grace;
      gateway.servers.push_back(
          McpGatewayServer{proxy, project.engine.policy(), std::move(guard), {}});
      return runGatewayFront(o, std::move(gateway));
    }
    return runMcpProxy(STDIN_FILENO, STDOUT_FILENO, project.engine.policy(), std::move(guard),
                       proxy);
  } catch (const std::exception& e) {
    // Nothing was relayed: the client sees the proxy's output end, and why on stderr.
    std::cerr << "toolguard mcp: " << e.what() << "\n";
    return kExitError;
  }
}

}  // namespace

McpAskChannel askChannelNamed(const std::string& name) {
  if (name == "elicitation") return McpAskChannel::Elicitation;
  if (name == "terminal") return McpAskChannel::Terminal;
  if (name == "none") return McpAskChannel::None;
  return McpAskChannel::Auto;
}

McpAskChannel askChannelFor(const McpOptions& o) {
  // Served over HTTP there is no terminal: the client, or nobody.
  if (!o.listen.empty() && o.ask == "auto") return McpAskChannel::Elicitation;
  return askChannelNamed(o.ask);
}

void setWorkspaces(CallContext& context, const std::vector<std::string>& workspaces) {
  std::error_code ec;
  for (const std::string& dir : workspaces) {
    std::string absolute = std::filesystem::absolute(dir, ec).lexically_normal().string();
    if (absolute.size() > 1 && absolute.back() == '/') absolute.pop_back();
    if (context.cwd.empty()) {
      context.cwd = absolute;
    } else {
      context.workspace_roots.push_back(absolute);
    }
  }
  if (context.cwd.empty()) context.cwd = front::currentDirectory();
}

GuardOptions mcpGuardOptions(const McpOptions& o, const Policy& policy,
                             const std::vector<std::filesystem::path>& project_roots,
                             McpAskChannel& ask) {
  GuardOptions guard = front::baseGuardOptions(o.guard);
  if (!o.ask_server.empty()) {
    const char* token = std::getenv("TOOLGUARD_TOKEN");
    if (token == nullptr || *token == '\0') {
      throw std::runtime_error("--ask-server needs an agent token in TOOLGUARD_TOKEN");
    }
    // The service's queue takes the place of the terminal.
    guard.approval_handler = remoteApprovalHandler(o.ask_server, token);
    if (o.ask == "auto") ask = McpAskChannel::Terminal;
  }
  // One long-lived process: the session's LLM answers are kept in memory.
  guard.llm_validator = front::llmValidatorFor(policy, project_roots, toolguardHome(o.guard.home),
                                               memoryLlmVerdictCache());
  return guard;
}

void addMcpCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<McpOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mcp",
      "Run an MCP server behind toolguard: toolguard mcp [OPTIONS] -- COMMAND [ARGS...]\n"
      "or toolguard mcp [OPTIONS] --url http://127.0.0.1:PORT/mcp\n"
      "Start COMMAND as the server over stdio (or reach the server at URL over MCP's Streamable "
      "HTTP transport) and relay its JSON-RPC messages. Every tool it "
      "lists is judged as mcp__NAME__TOOL (tools the policy denies outright are hidden); every "
      "tools/call is decided before the server sees it: allow forwards it, deny answers with "
      "an error result the model reads, ask asks the person (through the client's elicitation, "
      "else on the terminal; nobody to ask: deny). Every decision goes to the audit log.");
  cmd->add_option("--name", options->name,
                  "The server's name in tool names (mcp__NAME__TOOL), the audit log and messages "
                  "(default: from COMMAND, e.g. server-filesystem)");
  cmd->add_option("--workspace", options->workspaces,
                  "The workspace the path rules judge against (repeatable; the first is the "
                  "calls' working directory). Default: the current directory")
      ->allow_extra_args(false);
  cmd->add_option("--ask", options->ask,
                  "Who is asked when a call needs approval: auto (the client by elicitation when "
                  "it supports it, else the terminal), elicitation, terminal, none")
      ->check(CLI::IsMember({"auto", "elicitation", "terminal", "none"}));
  cmd->add_option("--ask-server", options->ask_server,
                  "Send asks to the queue of `toolguard serve` at URL (http://, unix: or "
                  "https://; an agent token in TOOLGUARD_TOKEN), where an approver answers "
                  "them, instead of the client or the terminal");
  cmd->add_option("--max-message-bytes", options->max_message_bytes,
                  "The longest message accepted from either side (default 64 MiB)")
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30));
  cmd->add_option("--shutdown-grace-ms", options->shutdown_grace_ms,
                  "How long the server gets to exit after its input is closed, and again after "
                  "SIGTERM, before SIGKILL (default 2000)")
      ->check(CLI::Range(1, 600000));
  cmd->add_flag("--sandbox", options->sandbox,
                "Run the server under `toolguard sandbox`: it may write only in the --workspace "
                "directories (and the policy's writable places), not read the secrets, and use "
                "the network only as the policy's sandbox: section says (docs/sandbox.md)");
  addPolicyOptions(*cmd, options->policy);
  addGuardOptions(*cmd, options->guard, /*with_prompt=*/false);
  cmd->add_option("--url", options->url,
                  "Reach a running server over MCP's Streamable HTTP transport at URL "
                  "(http:// to this machine) instead of starting a command");
  cmd->add_option("--header", options->headers,
                  "A header sent to the --url server with every request, as \"Name: value\" "
                  "(repeatable); ${VAR} in the value is the environment variable VAR, so a "
                  "token need not be on the command line: --header 'Authorization: Bearer "
                  "${SERVER_TOKEN}'. Never logged or audited")
      ->allow_extra_args(false);
  cmd->add_option("--gateway", options->gateway,
                  "Serve several MCP servers behind one: FILE names each (a command or a URL, "
                  "its credentials, workspaces, idle time and policy section; "
                  "docs/mcp-gateway.md). The client sees their tools as SERVER__TOOL");
  cmd->add_option("--listen", options->listen,
                  "Serve the guarded tools over MCP's Streamable HTTP transport at "
                  "http://HOST:PORT/mcp instead of stdio; callers show an agent token of "
                  "`toolguard serve token add` (Authorization: Bearer). Each client gets a "
                  "session of its own (its servers started for it)");
  cmd->add_option("--store", options->store,
                  "With --listen: where the tokens are, as for `toolguard serve` (file, or a "
                  "postgresql:// URL)");
  cmd->add_option("--allow-origin", options->allowed_origins,
                  "With --listen: a browser page's origin (https://app.example.com) that may "
                  "call, besides the endpoint's own; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--max-sessions", options->max_sessions,
                  "With --listen: sessions open at once (default 64)")
      ->check(CLI::Range(size_t{1}, size_t{100000}));
  cmd->add_option("--max-streams", options->max_streams,
                  "With --listen: event streams open at once (default 512)")
      ->check(CLI::Range(size_t{1}, size_t{1000000}));
  cmd->add_option("--max-body", options->max_body,
                  "With --listen: the largest message a client may POST, bytes (default 4 MiB)")
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30));
  cmd->add_option("--rate", options->rate,
                  "With --listen: requests a second one token may make; past it 429 (default "
                  "2000)")
      ->check(CLI::Range(1.0, 1e9));
  cmd->add_option("--tls-cert", options->tls_certificate,
                  "With --listen: serve HTTPS with this PEM certificate (chain)");
  cmd->add_option("--tls-key", options->tls_key, "With --listen: the PEM key of --tls-cert");
  cmd->add_option("command", options->command,
                  "The MCP server's command line, after -- (or give --url)");
  cmd->callback([options, &exit_code] { exit_code = runMcp(*options); });
}

}  // namespace toolguard::cli
