#pragma once
// Internal: the immutable state a ToolRegistry publishes; each call runs on
// the snapshot that was current when it started.

#include <string>
#include <unordered_map>
#include <vector>

#include "toolguard/tool_registry.hpp"

namespace toolguard {

/// One registered tool.
struct ToolRegistry::Entry {
  ToolInfo info;
  ToolFunction function;
  bool enabled = true;
};

/// Everything a call needs, never changed once published.
struct ToolRegistry::Snapshot {
  Policy policy;                                      ///< the base policy plus the registered tools
  std::shared_ptr<Guard> guard;                       ///< judges with an engine built from `policy`
  std::vector<std::shared_ptr<const Entry>> entries;  ///< registration order
  std::unordered_map<std::string, size_t> index;      ///< name -> position in entries
  std::vector<std::shared_ptr<InvocationFilter>> invocation_filters;
  std::vector<std::shared_ptr<ResultFilter>> result_filters;

  /// The entry of that name, or nullptr.
  const Entry* find(const std::string& name) const {
    auto it = index.find(name);
    return it == index.end() ? nullptr : entries[it->second].get();
  }
};

namespace detail {

/// The registered entry a program gave, merged with what the policy's
/// catalog already knows of the name (see ToolRegistry::registerTool);
/// `default_policy` is the registry's policy for tools without one.
ToolInfo mergeWithCatalog(ToolInfo info, const Policy& policy,
                          std::optional<ToolPolicy> default_policy);

/// True when the policy refuses every call of the tool (tool policy deny,
/// or a deny/abort rule with no conditions that targets it).
bool deniedOutright(const ToolInfo& tool, const Policy& policy);

/// The tool as an OpenAI-style function definition.
nlohmann::json functionDefinition(const ToolInfo& tool);

/// Runs an allowed call through the invocation filters, the callback and
/// the result filters. Never throws.
ToolOutcome runAllowedCall(const ToolRegistry::Snapshot& snapshot, const ToolRegistry::Entry& entry,
                           const ToolInvocation& invocation);

}  // namespace detail
}  // namespace toolguard
