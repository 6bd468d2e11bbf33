// Claude Code's MCP servers that run behind `toolguard mcp`, read from the
// user's own Claude Code configuration.
#include "claude_mcp_servers.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace toolguard::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// The largest ~/.claude.json read (it keeps a history per project).
constexpr std::uintmax_t kMaxConfigBytes = std::uintmax_t{64} << 20;

// The JSON object in `file`, or null when it is missing, too large or not one.
json readConfig(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return nullptr;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec || size > kMaxConfigBytes) return nullptr;
  std::ifstream in(file);
  json config = json::parse(in, nullptr, false);
  return config.is_object() ? config : json();
}

// Claude Code's name for a server in tool names: every character other than
// a letter, a digit, '_' or '-' becomes '_'.
std::string claudeToolPrefix(const std::string& server) {
  std::string name = server;
  for (char& c : name) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-';
    if (!kept) c = '_';
  }
  return "mcp__" + name + "__";
}

// True when `entry` starts `toolguard mcp ... -- COMMAND` (a stdio server).
bool startsTheProxy(const json& entry) {
  if (!entry.is_object()) return false;
  const auto command = entry.find("command");
  const auto args = entry.find("args");
  if (command == entry.end() || !command->is_string() || args == entry.end() || !args->is_array() ||
      args->empty()) {
    return false;
  }
  if (entry.contains("type") && entry["type"] != "stdio") return false;
  if (fs::path(command->get<std::string>()).filename() != "toolguard") return false;
  if ((*args)[0] != "mcp") return false;
  for (size_t i = 1; i + 1 < args->size(); ++i) {
    if ((*args)[i] == "--") return true;  // and a server command after it
  }
  return false;
}

// The names in `servers` (an mcpServers object) the call's server may be.
std::optional<std::string> definedIn(const json& servers, const ToolCall& call,
                                     const std::string& hook_name) {
  if (!servers.is_object()) return std::nullopt;
  for (const auto& [name, entry] : servers.items()) {
    const bool same =
        hook_name.empty() ? call.tool.starts_with(claudeToolPrefix(name)) : name == hook_name;
    if (same) return name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> claudeServerBehindProxy(const ToolCall& call, const std::string& home,
                                                   const json& hook_server) {
  if (!call.tool.starts_with("mcp__") || call.context.cwd.empty()) return std::nullopt;
  std::string hook_name;
  if (hook_server.is_object()) {
    const std::string source = hook_server.value("source", "");
    if (source != "user" && source != "local") return std::nullopt;
    hook_name = hook_server.value("name", "");
    if (hook_name.empty() || !call.tool.starts_with(claudeToolPrefix(hook_name))) {
      return std::nullopt;
    }
  }
  std::vector<fs::path> dirs;  // the cwd, then each directory above it
  for (fs::path dir = call.context.cwd;; dir = dir.parent_path()) {
    dirs.push_back(dir);
    if (dir == dir.parent_path()) break;
  }
  for (const fs::path& dir : dirs) {
    const json project = readConfig(dir / ".mcp.json");
    if (project.is_object() && definedIn(project.value("mcpServers", json()), call, hook_name)) {
      return std::nullopt;
    }
  }
  const char* config_dir = std::getenv("CLAUDE_CONFIG_DIR");
  const json config = readConfig(
      (config_dir != nullptr && *config_dir != '\0' ? fs::path(config_dir) : fs::path(home)) /
      ".claude.json");
  if (!config.is_object()) return std::nullopt;
  const json projects = config.value("projects", json());
  std::vector<const json*> scopes;  // local (nearest project first), then user
  for (const fs::path& dir : dirs) {
    if (!projects.is_object()) break;
    auto project = projects.find(dir.string());
    if (project != projects.end() && project->is_object() && project->contains("mcpServers")) {
      scopes.push_back(&(*project)["mcpServers"]);
    }
  }
  if (config.contains("mcpServers")) scopes.push_back(&config["mcpServers"]);
  for (const json* servers : scopes) {
    if (auto name = definedIn(*servers, call, hook_name)) {
      return startsTheProxy((*servers)[*name]) ? name : std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace toolguard::cli
