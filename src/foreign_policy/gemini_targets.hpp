#pragma once
// Internal: the tools a Gemini CLI rule names (toolName, mcpName) as toolguard
// tool patterns.

#include <string>
#include <vector>

#include "foreign_policy/gemini_rule.hpp"

namespace toolguard::detail::gemini {

/// The tool patterns of a rule.
struct ToolTargets {
  std::vector<std::string> tools;    ///< toolguard tool names and wildcards
  std::vector<std::string> dropped;  ///< names an allow rule cannot keep (see .cpp)
};

/// Reads toolName and mcpName. An MCP tool is named in every spelling Gemini
/// CLI has used (`mcp_<server>_<tool>`, `mcp__<server>__<tool>`,
/// `<server>__<tool>`); a legacy name also names the tool's current name.
/// Wildcards Gemini CLI does not match as wildcards (anything but `*`,
/// `mcp_*` and `mcp_<server>_*`) are globs for restricting rules and
/// dropped from allow rules.
ToolTargets readToolTargets(const GeminiRule& rule);

/// The name of Gemini CLI's shell tool.
inline constexpr const char* kShellTool = "run_shell_command";

/// True when one of the patterns selects Gemini CLI's shell tool.
bool coversShell(const std::vector<std::string>& tools);

}  // namespace toolguard::detail::gemini
