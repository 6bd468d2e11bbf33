// What the model is shown of the registered tools, and how a registered
// entry merges with what the policy's catalog knows.
#include <algorithm>

#include "core/rule_conditions.hpp"
#include "core/rule_index.hpp"
#include "registry_state.hpp"

namespace toolguard::detail {

namespace {

std::optional<ToolPolicy> stricterPolicy(std::optional<ToolPolicy> a, std::optional<ToolPolicy> b) {
  if (!a) return b;
  if (!b) return a;
  return isStricter(toVerdict(*b), toVerdict(*a)) ? b : a;
}

}  // namespace

void mergeMetadata(ToolMetadata& ours, const ToolMetadata& known) {
  if (ours.category.empty()) ours.category = known.category;
  ours.side_effect = std::max(ours.side_effect, known.side_effect);
  ours.risk = std::max(ours.risk, known.risk);
  ours.default_approval = std::max(ours.default_approval, known.default_approval);
  // Only results of tools both sides call read-only and idempotent are cached.
  ours.read_only = ours.read_only && known.read_only;
  ours.idempotent = ours.idempotent && known.idempotent;
}

ToolInfo mergeWithCatalog(ToolInfo info, const Policy& policy,
                          std::optional<ToolPolicy> default_policy) {
  const ToolInfo* known = policy.tools.find(info.name);
  if (known == nullptr) {
    if (!info.policy) info.policy = default_policy;
    return info;
  }
  // Leaving the kind or the argument roles unset must not switch off what
  // the catalog knows: a "Bash" without command_arg would skip the shell
  // parser, a "Write" without path_args the path rules.
  if (info.kind == ToolKind::Other) info.kind = known->kind;
  if (info.kind == known->kind) {
    if (info.command_arg.empty()) info.command_arg = known->command_arg;
    if (info.path_args.empty()) info.path_args = known->path_args;
  }
  mergeMetadata(info.metadata, known->metadata);
  if (info.description.empty()) info.description = known->description;
  if (info.input_schema.is_null()) info.input_schema = known->input_schema;
  // The catalog's (or a policy file's) tool policy holds when it is
  // stricter than the program's, or than the registry's default.
  info.policy = stricterPolicy(info.policy ? info.policy : default_policy, effectivePolicy(*known));
  return info;
}

ToolInfo mergeServerTool(ToolInfo from_server, const Policy& policy) {
  const ToolInfo* known = policy.tools.find(from_server.name);
  if (known == nullptr) return from_server;
  if (known->kind != ToolKind::Other) {
    from_server.kind = known->kind;
    from_server.command_arg = known->command_arg;
    if (!known->path_args.empty()) from_server.path_args = known->path_args;
  }
  mergeMetadata(from_server.metadata, known->metadata);
  // The user's word for this tool, not the server's claims about it.
  if (std::optional<ToolPolicy> own = effectivePolicy(*known)) from_server.policy = own;
  if (from_server.description.empty()) from_server.description = known->description;
  if (from_server.input_schema.is_null()) from_server.input_schema = known->input_schema;
  return from_server;
}

bool deniedOutright(const ToolInfo& tool, const Policy& policy) {
  if (effectivePolicy(tool) == ToolPolicy::Deny) return true;
  return std::any_of(policy.rules.begin(), policy.rules.end(), [&](const auto& rule) {
    return ruleRefusesItsWholeTarget(*rule) && targetSelects(rule->target(), tool.name, tool);
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
