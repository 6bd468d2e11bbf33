#pragma once
// Internal: an MCP tool known only by its name and the arguments of one call
// (a hook call: the agent runs the server, toolguard never saw its tools/list).

#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"
#include "toolguard/verdict.hpp"

namespace toolguard::detail {

/// The tool as the MCP proxy would read it from a listing without
/// annotations (mcpToolInfo: not read-only, destructive, open world) whose
/// schema types the arguments this call gives: arguments named like paths
/// (`path`, `file`, `*_path`, `directory`, ...) are path accesses, and a
/// string argument named like a command (`command`, `cmd`, `shell_command`,
/// ...) makes it a shell tool whose command the shell rules judge. The name
/// must start with `mcp__`.
ToolInfo mcpToolFromArguments(const ToolCall& call, Verdict policy_default);

}  // namespace toolguard::detail
