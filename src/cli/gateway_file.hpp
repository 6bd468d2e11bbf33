#pragma once
// Internal: the gateway file of `toolguard mcp --gateway FILE`: the servers
// behind one gateway, each a command (stdio) or a URL (Streamable HTTP),
// with its credentials, workspaces, idle time and its own policy section.
// The format is in docs/mcp-gateway.md.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "policy/doc_node.hpp"
#include "toolguard/policy.hpp"

namespace toolguard::cli {

/// One server of a gateway file.
struct GatewayFileServer {
  std::string name;
  std::vector<std::string> command;  ///< or
  std::string url;
  /// Headers for the URL, `${VAR}` already read from the environment.
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> workspaces;  ///< absolute; the first is the calls' cwd
  std::chrono::milliseconds idle_stop{0};
  bool sandbox = false;  ///< the command runs under `toolguard sandbox`
  /// The server's policy section: policy files (absolute), and an inline
  /// policy document (a mapping of the gateway file; null when absent).
  std::vector<std::filesystem::path> policy_files;
  const detail::DocNode* policy_section = nullptr;
};

/// A gateway file, read.
struct GatewayFile {
  std::string path;
  std::shared_ptr<detail::DocNode> root;  ///< keeps the policy sections alive
  std::vector<GatewayFileServer> servers;
};

/// Reads and checks a gateway file. Throws PolicyError with the file, line
/// and column of every problem (an unknown key, a bad name, a server with
/// both or neither a command and a URL, an unset ${VAR}, ...).
GatewayFile readGatewayFile(const std::filesystem::path& file);

/// Adds `server`'s policy section (its files, then its inline document, as
/// the explicit layer) to `policy`. Throws PolicyError.
void mergeServerPolicy(Policy& policy, const GatewayFile& file, const GatewayFileServer& server);

}  // namespace toolguard::cli
