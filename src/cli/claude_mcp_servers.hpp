#pragma once
// Internal: which of Claude Code's MCP servers run behind `toolguard mcp`, so
// that the Claude Code hook leaves their calls to the proxy (asked once).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "toolguard/tool_call.hpp"

namespace toolguard::cli {

/// The Claude Code MCP server the call's tool (`mcp__SERVER__TOOL`) belongs
/// to, when the definition Claude Code uses for it starts the server as
/// `toolguard mcp ... -- COMMAND` and is the user's own: the local scope
/// (`projects[DIR].mcpServers` of `~/.claude.json`, or of
/// `$CLAUDE_CONFIG_DIR/.claude.json`, DIR the call's cwd or a directory above
/// it) first, else the user scope (`mcpServers` there), as Claude Code
/// ranks them. A server a project's `.mcp.json` (in the cwd or above) also
/// defines is never left to the proxy: a cloned repository must not be able
/// to turn the hook's question off, nor to stand in for the user's server.
/// `hook_server` is the hook input's `mcp_server` object when Claude Code
/// sent one (`{"name", "source"}`): then its name is the server's, and only
/// the sources "user" and "local" qualify. nullopt when the tool is not an
/// MCP tool, a file cannot be read, or the server is started another way.
std::optional<std::string> claudeServerBehindProxy(const ToolCall& call, const std::string& home,
                                                   const nlohmann::json& hook_server);

}  // namespace toolguard::cli
