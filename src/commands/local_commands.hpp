#pragma once
// Internal: commands and tools shown to keep what they are given on this
// machine (the closed world behind the `outward` label: anything not shown
// local may carry data to another machine or person).

#include <span>
#include <string_view>

#include "shell_facts.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard::detail {

/// True when the command is ordinary work (every word known from its table
/// of harmless options) of a program that neither reaches another machine
/// nor runs code of the workspace: reading, listing, searching and
/// comparing files, text filters, file operations, everyday local git,
/// version queries, and wrappers whose command is judged on its own. A
/// build, a test run, a linter or a package manager runs code that may
/// send anything, a fetch or an install talks to the network: not local.
/// Nor is a command of an MCP server's command tool, one run from an
/// unusual place (the workspace's `.venv/bin/ls`), one that redirects to a
/// device or a run-time target, or one touching a network mount (/net, /afs).
bool commandStaysLocal(const CommandScene& scene);

/// True when a tool's metadata says it stays on this machine (no side
/// effect, or a local read or write). Unknown tools are taken to be
/// irreversible, and an MCP tool is never local: its arguments go to its
/// server, whatever the server's annotations claim.
bool toolStaysLocal(const ToolInfo& tool);

/// The tables whose ordinary work stays local, by their `command` text
/// ("cat", "git status"), for the test that reviews each of them.
std::span<const std::string_view> localTableCommands();

}  // namespace toolguard::detail
