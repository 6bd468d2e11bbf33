// Tool catalog lookups.
#include "toolguard/tool_catalog.hpp"

namespace toolguard {
namespace {

ToolInfo genericTool(std::string category) {
  ToolInfo info;
  info.kind = ToolKind::Other;
  info.metadata.category = std::move(category);
  info.metadata.side_effect = SideEffect::Irreversible;  // unknown: assume the worst
  info.metadata.risk = RiskLevel::Medium;
  info.metadata.default_approval = DefaultApproval::Conditional;
  return info;
}

}  // namespace

void ToolCatalog::add(ToolInfo tool) {
  std::string name = tool.name;
  tools_.insert_or_assign(std::move(name), std::move(tool));
}

const ToolInfo* ToolCatalog::find(std::string_view name) const {
  auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second;
}

const ToolInfo& ToolCatalog::resolve(std::string_view name) const {
  if (const ToolInfo* known = find(name)) return *known;
  static const ToolInfo kUnknown = genericTool("");
  static const ToolInfo kUnknownMcp = genericTool("mcp");
  return name.starts_with("mcp__") ? kUnknownMcp : kUnknown;
}

std::vector<const ToolInfo*> ToolCatalog::all() const {
  std::vector<const ToolInfo*> out;
  out.reserve(tools_.size());
  for (const auto& [name, info] : tools_) out.push_back(&info);
  return out;
}

}  // namespace toolguard
