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

Expected<ClaudeRuleText> splitClaudeRule(const std::string& rule) {
  if (rule.empty()) {
    return fail("empty permission rule");
  }
  ClaudeRuleText out;
  const size_t open = rule.find('(');
  out.tool = rule.substr(0, open);
  if (!validToolName(out.tool)) {
    return fail("'" + rule + "' is not a permission rule (expected Tool or Tool(specifier))");
  }
  if (open == std::string::npos) return out;
  if (rule.back() != ')' || rule.size() < open + 2) {
    return fail("'" + rule + "': the specifier has no closing parenthesis");
  }
  out.specifier = rule.substr(open + 1, rule.size() - open - 2);
  if (out.specifier->find_first_not_of(" \t") == std::string::npos) {
    return fail("'" + rule + "': empty specifier (write the bare tool name to match every use)");
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
