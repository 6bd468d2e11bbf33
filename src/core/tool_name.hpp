#pragma once
// Internal: tool names that imitate a known tool (`BASH`, `"Bash "`, a
// zero-width or full-width look-alike).

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "toolguard/tool_catalog.hpp"

namespace toolguard::detail {

/// What a tool name that is not in the catalog imitates.
struct ToolNameImitation {
  std::string tool;        ///< the known tool's name
  bool disguised = false;  ///< invisible, full-width or other non-ASCII characters were used
};

/// The known tool `name` imitates when it is not known itself: the same name
/// after removing surrounding white space and invisible characters, folding
/// full-width forms to ASCII and ignoring case. nullopt when `name` is known
/// or imitates nothing.
/// `by_lowercase_name` is toolsByLowercaseName(tools), made once for a policy
/// (see CompiledPolicy), so a decision does not walk the catalog.
std::optional<ToolNameImitation> imitatedTool(
    std::string_view name, const ToolCatalog& tools,
    const std::unordered_map<std::string, std::string>& by_lowercase_name);

/// The index imitatedTool takes: ASCII-lowercase name -> the catalog's name.
std::unordered_map<std::string, std::string> toolsByLowercaseName(const ToolCatalog& tools);

}  // namespace toolguard::detail
