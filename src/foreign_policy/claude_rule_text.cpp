// Splitting Claude Code permission rule strings.
#include "foreign_policy/claude_rule_text.hpp"

namespace toolguard::detail {
namespace {

// Tool names are letters, digits, `_` and `-` (MCP server names are normalized
// to these), with `*` as a tool-name glob.
bool validToolName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '*';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::optional<ClaudeRuleText> splitClaudeRule(const std::string& rule, std::string& error) {
  if (rule.empty()) {
    error = "empty permission rule";
    return std::nullopt;
  }
  ClaudeRuleText out;
  const size_t open = rule.find('(');
  out.tool = rule.substr(0, open);
  if (!validToolName(out.tool)) {
    error = "'" + rule + "' is not a permission rule (expected Tool or Tool(specifier))";
    return std::nullopt;
  }
  if (open == std::string::npos) return out;
  if (rule.back() != ')' || rule.size() < open + 2) {
    error = "'" + rule + "': the specifier has no closing parenthesis";
    return std::nullopt;
  }
  out.specifier = rule.substr(open + 1, rule.size() - open - 2);
  if (out.specifier->find_first_not_of(" \t") == std::string::npos) {
    error = "'" + rule + "': empty specifier (write the bare tool name to match every use)";
    return std::nullopt;
  }
  return out;
}

ClaudeMapping wholeTools(std::vector<std::string> tools) {
  ClaudeMapping m;
  m.rule.emplace();
  m.rule->header.target.tools = std::move(tools);
  return m;
}

ClaudeMapping leftOut(std::string note) {
  ClaudeMapping m;
  m.notes.push_back(std::move(note));
  return m;
}

}  // namespace toolguard::detail
