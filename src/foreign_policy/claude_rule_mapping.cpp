// One Claude Code permission rule string as a toolguard rule: which tools it
// targets and with which conditions.
#include "foreign_policy/claude_rule_mapping.hpp"

#include "foreign_policy/claude_bash_rules.hpp"
#include "foreign_policy/claude_domain_rules.hpp"
#include "foreign_policy/claude_param_rules.hpp"
#include "foreign_policy/claude_path_rules.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// The tools an `Agent(...)` (formerly `Task(...)`) rule is about.
std::vector<std::string> agentTools() {
  return {"Agent", "Task"};
}

// The tools a `Read(path)` rule targets: a restricting one also covers
// Claude Code's editors, as a Read deny rule blocks Edit and Write there too.
std::vector<std::string> readRuleTools(const ClaudeRuleContext& rule) {
  std::vector<std::string> tools = claudeReadTools();
  if (rule.restricts()) tools.insert(tools.end(), {"Edit", "Write", "MultiEdit"});
  return tools;
}

// `mcp__...` with a `*` anywhere, `*`, `B*`: tool-name globs.
ClaudeMapping toolNameGlob(const ClaudeRuleText& text, const ClaudeRuleContext& rule) {
  const bool mcp = text.tool.starts_with("mcp__");
  if (text.specifier) {
    if (mcp) return leftOut("Claude Code skips an mcp__ rule with parentheses in settings files");
    throw PolicyError(rule.where, "'" + rule.text + "': a tool-name glob takes no specifier");
  }
  // Allow rules may glob only the tool part, after a literal mcp__<server>__.
  const size_t server_end = mcp ? text.tool.find("__", 5) : std::string::npos;
  const bool anchored = mcp && server_end != std::string::npos && server_end > 5 &&
                        text.tool.substr(5, server_end - 5).find('*') == std::string::npos;
  if (!anchored && !rule.restricts()) {
    return leftOut(
        "Claude Code skips an allow rule whose tool-name glob does not start with a literal "
        "mcp__<server>__ (with a warning): it approves nothing");
  }
  return wholeTools({text.tool});
}

// `mcp__server` (every tool of the server) or `mcp__server__tool`.
ClaudeMapping mcpName(const ClaudeRuleText& text, const ClaudeRuleContext& rule) {
  if (text.specifier) {
    return leftOut("Claude Code skips an mcp__ rule with parentheses in settings files");
  }
  const std::string rest = text.tool.substr(5);
  const size_t split = rest.find("__");
  if (rest.empty() || split == 0 || (split != std::string::npos && split + 2 == rest.size())) {
    throw PolicyError(rule.where,
                      "'" + rule.text + "': expected mcp__<server> or mcp__<server>__<tool>");
  }
  if (split == std::string::npos) return wholeTools({text.tool, text.tool + "__*"});
  return wholeTools({text.tool});
}

// A tool named without a specifier: every use of it.
ClaudeMapping bareTool(const std::string& tool, const ClaudeRuleContext& rule) {
  if (tool == "Bash") return mapBareBash(rule);
  if (tool == "Agent" || tool == "Task") return wholeTools(agentTools());
  if (tool == "Read") return wholeTools(rule.restricts() ? claudeReadTools() : std::vector{tool});
  if (tool == "Edit") {
    if (rule.restricts()) return wholeTools(claudeEditTools());
    ClaudeMapping m = wholeTools({tool});
    m.notes.push_back(
        "toolguard allows only the Edit tool with a bare Edit rule (Claude Code's documentation "
        "says Edit rules apply to every built-in file editor): name Write, MultiEdit or "
        "NotebookEdit too to allow them");
    return m;
  }
  return wholeTools({tool});
}

// A path rule on a tool Claude Code never consults path rules for.
ClaudeMapping unconsultedPathRule(const ClaudeRuleText& text, const std::string& as,
                                  std::vector<std::string> tools, const ClaudeRuleContext& rule) {
  const std::string why =
      "Claude Code checks file permissions against Edit(path) and Read(path) "
      "rules only: it accepts " +
      text.tool + "(path) but never consults it";
  if (!rule.restricts()) return leftOut(why + ", so this allow rule is left out");
  ClaudeMapping m = mapPathPattern(*text.specifier, std::move(tools), rule);
  m.notes.push_back(why + "; toolguard reads it as " + as + "(" + *text.specifier +
                    "), the stricter reading");
  return m;
}

// A documented specifier toolguard cannot express on `tool`.
ClaudeMapping inexpressible(const std::string& tool, const ClaudeRuleContext& rule) {
  const std::string why = "toolguard cannot match the specifier of " + tool + "(...) rules";
  if (!rule.restricts()) return leftOut(why + ": this allow rule is left out");
  ClaudeMapping m = wholeTools({tool});
  m.notes.push_back(why + ": it applies this rule to every " + tool + " call (stricter)");
  return m;
}

// `Tool(specifier)` on a named tool.
ClaudeMapping withSpecifier(const ClaudeRuleText& text, const ClaudeRuleContext& rule) {
  const std::string& tool = text.tool;
  const std::string& spec = *text.specifier;
  const std::optional<ClaudeParamRule> param = parseParamRule(tool, spec);
  if (param && rule.restricts()) {
    if (param->primary) {
      return leftOut("Claude Code ignores a parameter rule on " + tool + "'s main field `" +
                     param->param + "` (with a startup warning): left out");
    }
    const bool agent = tool == "Agent" || tool == "Task";
    return mapArgumentValue(param->param, param->value, agent ? agentTools() : std::vector{tool},
                            rule);
  }
  if (tool == "Bash") {
    if (spec == "*") return mapBareBash(rule);
    return mapBashPattern(spec, rule);
  }
  if (tool == "Read") return mapPathPattern(spec, readRuleTools(rule), rule);
  if (tool == "Edit") return mapPathPattern(spec, claudeEditTools(), rule);
  if (tool == "Write" || tool == "MultiEdit" || tool == "NotebookEdit") {
    return unconsultedPathRule(text, "Edit", claudeEditTools(), rule);
  }
  if (tool == "Glob" || tool == "Grep" || tool == "LS") {
    return unconsultedPathRule(text, "Read", readRuleTools(rule), rule);
  }
  if (tool == "WebFetch" && spec.starts_with("domain:")) {
    return mapWebFetchDomain(spec.substr(7), rule);
  }
  if (tool == "Agent" || tool == "Task") {
    return mapArgumentValue("subagent_type", spec, agentTools(), rule);
  }
  if (tool == "PowerShell" || tool == "Skill") return inexpressible(tool, rule);
  if (param) {
    return leftOut(
        "Claude Code matches parameter rules in deny and ask lists only: this allow "
        "rule approves nothing and is left out");
  }
  throw PolicyError(rule.where, "'" + rule.text + "': Claude Code defines no specifier '" + spec +
                                    "' for " + tool);
}

}  // namespace

ClaudeMapping mapClaudeRule(const ClaudeRuleText& text, const ClaudeRuleContext& rule) {
  if (text.tool.find('*') != std::string::npos) return toolNameGlob(text, rule);
  if (text.tool.starts_with("mcp__")) return mcpName(text, rule);
  if (text.tool == "Cd") {
    return leftOut(
        "Cd rules govern the /cd command a person types, not a tool call: there is "
        "nothing for toolguard to guard");
  }
  if (!text.specifier) return bareTool(text.tool, rule);
  return withSpecifier(text, rule);
}

}  // namespace toolguard::detail
