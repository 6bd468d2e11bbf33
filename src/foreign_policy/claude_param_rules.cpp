// Claude Code `Tool(param:value)` rules: one top-level input field, compared
// with the literal value the model sent (`*` is a wildcard, otherwise exact).
#include "foreign_policy/claude_param_rules.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <map>

namespace toolguard::detail {
namespace {

// Each tool's primary field (matched by its own specifier) and its other
// scalar input fields, from Claude Code's tool input reference. Bash's
// `timeout` is left out: `Bash(timeout:*)` reads as the `timeout` command.
struct ToolFields {
  std::string primary;
  std::vector<std::string> others;
};

const std::map<std::string, ToolFields>& toolFields() {
  static const std::map<std::string, ToolFields> fields = {
      {"Bash", {"command", {"description", "run_in_background", "dangerouslyDisableSandbox"}}},
      {"PowerShell", {"command", {"description", "run_in_background"}}},
      {"Read", {"file_path", {"offset", "limit", "pages"}}},
      {"Write", {"file_path", {"content"}}},
      {"Edit", {"file_path", {"old_string", "new_string", "replace_all"}}},
      {"MultiEdit", {"file_path", {}}},
      {"NotebookEdit", {"notebook_path", {"new_source", "cell_id", "cell_type", "edit_mode"}}},
      {"Glob", {"path", {"pattern"}}},
      {"Grep",
       {"path",
        {"pattern", "glob", "output_mode", "type", "multiline", "head_limit", "-i", "-n", "-A",
         "-B", "-C"}}},
      {"WebFetch", {"url", {"prompt"}}},
      {"WebSearch", {"", {"query"}}},
      {"Agent",
       {"", {"prompt", "description", "subagent_type", "model", "isolation", "run_in_background"}}},
      {"Task",
       {"", {"prompt", "description", "subagent_type", "model", "isolation", "run_in_background"}}},
  };
  return fields;
}

std::string trimmed(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::optional<ClaudeParamRule> parseParamRule(const std::string& tool, const std::string& spec) {
  const auto fields = toolFields().find(tool);
  const size_t colon = spec.find(':');
  if (fields == toolFields().end() || colon == std::string::npos) return std::nullopt;
  ClaudeParamRule out;
  out.param = trimmed(spec.substr(0, colon));
  out.value = spec.substr(colon + 1);
  out.value.erase(0, std::min(out.value.size(), out.value.find_first_not_of(" \t")));
  const ToolFields& f = fields->second;
  out.primary = !f.primary.empty() && out.param == f.primary;
  const bool known =
      out.primary || std::find(f.others.begin(), f.others.end(), out.param) != f.others.end();
  if (!known) return std::nullopt;
  return out;
}

ClaudeMapping mapArgumentValue(const std::string& param, const std::string& value,
                               std::vector<std::string> tools, const ClaudeRuleContext& rule) {
  std::string regex;
  size_t from = 0;
  for (size_t star = value.find('*'); star != std::string::npos; star = value.find('*', from)) {
    regex += RE2::QuoteMeta(value.substr(from, star - from)) + ".*";
    from = star + 1;
  }
  regex += RE2::QuoteMeta(value.substr(from));
  ClaudeMapping m = wholeTools(std::move(tools));
  ValueMatcher matcher = ValueMatcher::Regex(regex);
  matcher.where = rule.where;
  m.rule->args.emplace_back(param, std::move(matcher));
  return m;
}

}  // namespace toolguard::detail
