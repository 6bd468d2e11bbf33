#pragma once
// The example agent's tools: a shell, and reading, writing and listing
// files in the working directory. Each declares its kind and which
// argument holds the command or path, so toolguard's shell and path rules
// judge every call before it runs.

#include "toolguard/tool_registry.hpp"

namespace guarded_agent {

/// Registers run_shell, read_file, write_file and list_directory.
void registerWorkspaceTools(toolguard::ToolRegistry& registry);

}  // namespace guarded_agent
