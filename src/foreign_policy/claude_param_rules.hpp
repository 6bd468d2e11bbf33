#pragma once
// Internal: Claude Code `Tool(param:value)` rules (deny and ask lists) and
// other rules on one argument value.

#include <optional>
#include <string>
#include <vector>

#include "foreign_policy/claude_rule_text.hpp"

namespace toolguard::detail {

/// A specifier naming one top-level input field of the tool.
struct ClaudeParamRule {
  std::string param;
  std::string value;     ///< `*` matches any run of characters
  bool primary = false;  ///< the field the tool's own specifier matches (Claude Code ignores it)
};

/// `param:value` when `param` is a scalar input field of `tool`; nullopt
/// otherwise (then the specifier is the tool's own syntax). Whitespace around
/// the colon is ignored.
std::optional<ClaudeParamRule> parseParamRule(const std::string& tool, const std::string& spec);

/// A rule on `tools` whose argument `param` matches `value` (`*` wildcards;
/// a boolean or number matches its JSON text).
ClaudeMapping mapArgumentValue(const std::string& param, const std::string& value,
                               std::vector<std::string> tools, const ClaudeRuleContext& rule);

}  // namespace toolguard::detail
