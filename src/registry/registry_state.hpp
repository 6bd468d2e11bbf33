#pragma once
// Internal: the immutable state a ToolRegistry publishes; each call runs on
// the snapshot that was current when it started.

#include <string>
#include <unordered_map>
#include <vector>

#include "catalog_merge.hpp"
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

/// The tool as an OpenAI-style function definition.
nlohmann::json functionDefinition(const ToolInfo& tool);

/// Runs an allowed call through the invocation filters, the callback and
/// the result filters. Never throws.
ToolOutcome runAllowedCall(const ToolRegistry::Snapshot& snapshot, const ToolRegistry::Entry& entry,
                           const ToolInvocation& invocation);

}  // namespace detail
}  // namespace toolguard
