#pragma once
// Internal: indexes that find the rules that can apply to a tool without
// scanning every rule.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "toolguard/rule.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard::detail {

/// A prefix tree over the literal prefix of wildcard patterns (the part before
/// the first `*` or `?`): walking a tool name through it yields only the
/// patterns whose prefix the name starts with.
class WildcardTrie {
 public:
  void insert(std::string_view pattern, uint32_t rule);

  /// Appends rules whose pattern matches `name`.
  void collect(std::string_view name, std::vector<uint32_t>& out) const;

 private:
  struct Entry {
    std::string pattern;
    uint32_t rule;
  };
  struct Node {
    std::vector<std::pair<char, uint32_t>> children;  // sorted by char
    std::vector<Entry> entries;
  };
  uint32_t child(uint32_t node, char c) const;
  std::vector<Node> nodes_{Node{}};
};

/// All rule indexes by the first non-empty part of their target.
class RuleIndex {
 public:
  explicit RuleIndex(const std::vector<std::shared_ptr<const Rule>>& rules);

  /// Indexes of the rules whose target selects this tool, ascending (policy order).
  std::vector<uint32_t> candidates(std::string_view name, const ToolInfo& tool) const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Map = std::unordered_map<std::string, std::vector<uint32_t>, Hash, std::equal_to<>>;
  const std::vector<std::shared_ptr<const Rule>>& rules_;
  Map by_name_;
  WildcardTrie wildcards_;
  Map by_category_;
  std::array<std::vector<uint32_t>, 7> by_kind_;
  std::vector<uint32_t> everywhere_;
};

/// True when every non-empty part of the target selects the tool.
bool targetSelects(const RuleTarget& target, std::string_view name, const ToolInfo& tool);

}  // namespace toolguard::detail
