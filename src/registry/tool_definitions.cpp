// What the model is shown of the registered tools, and how a registered
// entry merges with what the policy's catalog knows.
#include <algorithm>

#include "../core/rule_conditions.hpp"
#include "../core/rule_index.hpp"
#include "registry_state.hpp"

namespace toolguard::detail {

ToolInfo mergeWithCatalog(ToolInfo info, const Policy& policy) {
  const ToolInfo* known = policy.tools.find(info.name);
  if (known == nullptr) return info;
  // Leaving the kind or argument roles unset must not switch off what the
  // catalog knows (a "Bash" registered as kind other would skip the shell
  // parser).
  if (info.kind == ToolKind::Other && known->kind != ToolKind::Other) {
    info.kind = known->kind;
    if (info.command_arg.empty()) info.command_arg = known->command_arg;
    if (info.path_args.empty()) info.path_args = known->path_args;
  }
  // A tool policy set by a policy file (or earlier code) still holds when
  // it is stricter than the program's.
  if (policy.tool_origins.count(info.name) != 0) {
    auto theirs = effectivePolicy(*known);
    auto ours = effectivePolicy(info);
    if (theirs && (!ours || isStricter(toVerdict(*theirs), toVerdict(*ours)))) {
      info.policy = theirs;
    }
  }
  return info;
}

bool deniedOutright(const ToolInfo& tool, const Policy& policy) {
  if (effectivePolicy(tool) == ToolPolicy::Deny) return true;
  return std::any_of(policy.rules.begin(), policy.rules.end(), [&](const auto& rule) {
    auto verdict = rule->fixedVerdict();
    bool refuses = verdict == Verdict::Deny || verdict == Verdict::Abort;
    return refuses && !ruleHasConditions(*rule) && targetSelects(rule->target(), tool.name, tool);
  });
}

nlohmann::json functionDefinition(const ToolInfo& tool) {
  nlohmann::json parameters = tool.input_schema;
  if (!parameters.is_object()) {
    parameters = {{"type", "object"}, {"properties", nlohmann::json::object()}};
  }
  return {{"type", "function"},
          {"function",
           {{"name", tool.name}, {"description", tool.description}, {"parameters", parameters}}}};
}

}  // namespace toolguard::detail
