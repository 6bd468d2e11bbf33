// Tool-name wildcards: `*` any run of characters, `?` exactly one.
#include "toolguard/rule.hpp"

namespace toolguard {

bool isWildcard(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

bool toolNameMatches(std::string_view pattern, std::string_view name) {
  // Iterative matcher with single-star backtracking: linear in practice,
  // O(pattern * name) at worst, no recursion.
  size_t p = 0, n = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

RuleHeader shellRuleHeader(std::string id, std::string file, PolicyLayer layer) {
  // Built field by field: GCC 12 warns (maybe-uninitialized) on the aggregate form.
  RuleHeader header;
  header.id = std::move(id);
  header.source.file = std::move(file);
  header.layer = layer;
  header.target.kinds.push_back(ToolKind::Shell);
  return header;
}

std::optional<Finding> Rule::evaluateCommand(const SimpleCommand&, const CallView&) const {
  return std::nullopt;
}

std::optional<Finding> Rule::evaluateAccess(const PathAccess&, const CallView&) const {
  return std::nullopt;
}

const std::vector<RuleExample>& Rule::examples() const {
  static const std::vector<RuleExample> kNone;
  return kNone;
}

}  // namespace toolguard
