#pragma once
// Internal: how a tool a program or an MCP server describes merges with what
// the policy's catalog already knows of its name, and whether the policy
// refuses it outright.
#include <optional>

#include "toolguard/policy.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard::detail {

/// Fills what `ours` left unset from `known`, and keeps whichever metadata
/// is more cautious.
void mergeMetadata(ToolMetadata& ours, const ToolMetadata& known);

/// The registered entry a program gave, merged with what the policy's
/// catalog already knows of the name (see ToolRegistry::registerTool);
/// `default_policy` is the registry's policy for tools without one.
ToolInfo mergeWithCatalog(ToolInfo info, const Policy& policy,
                          std::optional<ToolPolicy> default_policy);

/// A tool an MCP server listed (mcpToolInfo), merged with what the policy
/// knows of the judged name: the policy's own entry decides the tool's
/// policy (its `policy` or `default_approval`) when it sets one, else the
/// server's reading does (which never loosens the default); its kind and
/// argument roles hold when it names a kind, and the more cautious metadata
/// of the two is kept.
ToolInfo mergeServerTool(ToolInfo from_server, const Policy& policy);

/// True when the policy refuses every call of the tool (tool policy deny,
/// or a deny/abort rule with no conditions that targets it).
bool deniedOutright(const ToolInfo& tool, const Policy& policy);

}  // namespace toolguard::detail
