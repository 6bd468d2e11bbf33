// Rule indexes: exact names, wildcard prefix tree, categories, kinds.
#include "rule_index.hpp"

#include <algorithm>

namespace toolguard::detail {

uint32_t WildcardTrie::child(uint32_t node, char c) const {
  const auto& children = nodes_[node].children;
  auto it = std::lower_bound(children.begin(), children.end(), c,
                             [](const auto& entry, char key) { return entry.first < key; });
  return it != children.end() && it->first == c ? it->second : 0;
}

void WildcardTrie::insert(std::string_view pattern, uint32_t rule) {
  uint32_t node = 0;
  for (char c : pattern) {
    if (c == '*' || c == '?') break;
    uint32_t next = child(node, c);
    if (next == 0) {
      next = static_cast<uint32_t>(nodes_.size());
      nodes_.emplace_back();
      auto& children = nodes_[node].children;
      auto it = std::lower_bound(children.begin(), children.end(), c,
                                 [](const auto& entry, char key) { return entry.first < key; });
      children.insert(it, {c, next});
    }
    node = next;
  }
  nodes_[node].entries.push_back({std::string(pattern), rule});
}

void WildcardTrie::collect(std::string_view name, std::vector<uint32_t>& out) const {
  uint32_t node = 0;
  size_t depth = 0;
  while (true) {
    for (const Entry& entry : nodes_[node].entries) {
      if (toolNameMatches(entry.pattern, name)) out.push_back(entry.rule);
    }
    if (depth == name.size()) break;
    node = child(node, name[depth++]);
    if (node == 0) break;
  }
}

bool targetSelects(const RuleTarget& target, std::string_view name, const ToolInfo& tool) {
  if (!target.tools.empty() &&
      std::none_of(target.tools.begin(), target.tools.end(),
                   [&](const std::string& p) { return toolNameMatches(p, name); })) {
    return false;
  }
  if (!target.categories.empty() && std::find(target.categories.begin(), target.categories.end(),
                                              tool.metadata.category) == target.categories.end()) {
    return false;
  }
  if (!target.kinds.empty() &&
      std::find(target.kinds.begin(), target.kinds.end(), tool.kind) == target.kinds.end()) {
    return false;
  }
  return true;
}

RuleIndex::RuleIndex(const std::vector<std::shared_ptr<const Rule>>& rules) : rules_(rules) {
  for (uint32_t i = 0; i < rules.size(); ++i) {
    const RuleTarget& target = rules[i]->target();
    if (!target.tools.empty()) {
      for (const std::string& pattern : target.tools) {
        if (isWildcard(pattern)) {
          wildcards_.insert(pattern, i);
        } else {
          by_name_[pattern].push_back(i);
        }
      }
    } else if (!target.categories.empty()) {
      for (const std::string& category : target.categories) by_category_[category].push_back(i);
    } else if (!target.kinds.empty()) {
      for (ToolKind kind : target.kinds) by_kind_[static_cast<size_t>(kind)].push_back(i);
    } else {
      everywhere_.push_back(i);
    }
  }
}

std::vector<uint32_t> RuleIndex::candidates(std::string_view name, const ToolInfo& tool) const {
  std::vector<uint32_t> out;
  if (auto it = by_name_.find(name); it != by_name_.end()) {
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  wildcards_.collect(name, out);
  if (!tool.metadata.category.empty()) {
    if (auto it = by_category_.find(tool.metadata.category); it != by_category_.end()) {
      out.insert(out.end(), it->second.begin(), it->second.end());
    }
  }
  const auto& kind_rules = by_kind_[static_cast<size_t>(tool.kind)];
  out.insert(out.end(), kind_rules.begin(), kind_rules.end());
  out.insert(out.end(), everywhere_.begin(), everywhere_.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  // The index chose one part of each target; the others still have to hold.
  std::erase_if(out, [&](uint32_t i) { return !targetSelects(rules_[i]->target(), name, tool); });
  return out;
}

}  // namespace toolguard::detail
