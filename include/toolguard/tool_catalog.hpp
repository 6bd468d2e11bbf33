#pragma once
// The catalog of known tools: built-in knowledge of common agents' tools,
// extended by policy files and by code.

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "toolguard/tool_info.hpp"

namespace toolguard {

/// Maps tool names to ToolInfo. Lookups of unknown names return a generic
/// description (kind other; category "mcp" for names of the form mcp__server__tool).
class ToolCatalog {
 public:
  /// An empty catalog.
  ToolCatalog() = default;

  /// The built-in catalog: Claude Code, Gemini CLI, Codex, Cline, Cursor and
  /// the MCP reference filesystem server's tools, with kinds and arguments.
  static const ToolCatalog& builtin();

  /// Adds a tool, replacing any tool of the same name.
  void add(ToolInfo tool);

  /// The tool of that name, or nullptr.
  const ToolInfo* find(std::string_view name) const;

  /// The tool of that name, or the generic description for an unknown tool.
  const ToolInfo& resolve(std::string_view name) const;

  /// True when the catalog has a tool of that name.
  bool contains(std::string_view name) const { return find(name) != nullptr; }

  /// All tools, in no particular order.
  std::vector<const ToolInfo*> all() const;

  /// Number of tools.
  size_t size() const { return tools_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, ToolInfo, Hash, std::equal_to<>> tools_;
};

}  // namespace toolguard
