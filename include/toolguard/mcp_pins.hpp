#pragma once
// MCP tool pinning: the first tools/list of a server is remembered (each
// tool's name, description, input schema and annotations, by hash, per
// server and user). A later listing that changes a tool, adds one, or
// describes one with hidden instructions, invisible characters or a name
// that imitates another server's tool hides that tool until a person
// approves it (`toolguard pins approve`). A server that changes what a tool
// says it does after it was trusted (a "rug pull") gets no call through.

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace toolguard {

/// A tool held back from a listing, and why.
struct HeldTool {
  std::string name;         ///< as the server lists it
  std::string why;          ///< "its description changed since it was pinned", ...
  std::string description;  ///< what the listing says now
  std::string hash;         ///< of the listing held (hashOf)
};

/// The pins of one server, kept in `dir`/SERVER.json (toolguard's home
/// mcp-pins). Safe with several proxies of one server at once.
class McpToolPins {
 public:
  McpToolPins(std::filesystem::path dir, std::string server);

  /// Reviews a tools/list result's `tools` array: on the server's first
  /// listing every tool is pinned; after it, a tool whose pinned hash
  /// differs, or that is new, is held (and remembered as pending approval).
  /// A tool whose description or schema addresses an AI agent, hides
  /// characters, or whose name imitates another server's pinned tool is
  /// held whatever its pin. Returns the held tools; the others may be shown.
  /// Throws std::runtime_error when the pins cannot be read or written.
  /// `continues_first` says the listing is a later page of the server's
  /// first listing (pinned like its first page).
  std::vector<HeldTool> review(const nlohmann::json& tools, bool continues_first = false);

  /// Whether the server has pins at all.
  bool known() const;

  /// The tools held now, waiting for approval.
  std::vector<HeldTool> pending() const;

  /// Pins the pending listing of `tool` (it is shown from the next listing
  /// on) and returns it; nullopt when nothing of that name is pending, or
  /// when `hash` is given and the pending listing is another one.
  std::optional<HeldTool> approve(const std::string& tool, const std::string& hash = "");

  /// The hash a pin covers: the tool's name, description, input schema and
  /// annotations (and title), as canonical JSON.
  static std::string hashOf(const nlohmann::json& tool);

 private:
  std::filesystem::path dir_;
  std::string server_;
};

/// The servers with pins in `dir`.
std::vector<std::string> pinnedServers(const std::filesystem::path& dir);

}  // namespace toolguard
