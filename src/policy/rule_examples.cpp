// Checking every rule's examples against the rule itself.
#include "policy/rule_examples.hpp"

#include "core/rule_index.hpp"

namespace toolguard {
namespace detail {

std::optional<Finding> findingOnExample(const Policy& policy, const Rule& rule,
                                        const ToolCall& call) {
  const ToolInfo& tool = policy.tools.resolve(call.tool);
  if (!targetSelects(rule.target(), call.tool, tool)) return std::nullopt;
  const CallView view(call, tool);
  const ShellProgram* program = view.shellProgram();
  if (!rule.judgesShellCommands() || program == nullptr) return rule.evaluate(view);
  std::optional<Finding> finding;
  for (const SimpleCommand& command : program->commands) {
    if (!finding) finding = rule.evaluateCommand(command, view);
  }
  return finding;
}

std::optional<std::string> exampleFailure(const Policy& policy, const Rule& rule,
                                          const RuleExample& ex) {
  const bool selected =
      targetSelects(rule.target(), ex.call.tool, policy.tools.resolve(ex.call.tool));
  const std::optional<Finding> finding = findingOnExample(policy, rule, ex.call);
  const bool matched = finding.has_value();
  if (matched == ex.should_match) return std::nullopt;
  std::string call = ex.call.tool + " " +
                     ex.call.args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string why = !selected ? " (the rule does not apply to tool " + ex.call.tool + ")" : "";
  return "rule " + rule.id() + ": example " +
         (ex.should_match ? "should match but does not: " : "should not match but does: ") + call +
         why;
}

}  // namespace detail

std::vector<PolicyDiagnostic> checkRuleExamples(const Policy& policy, bool include_builtin) {
  std::vector<PolicyDiagnostic> failures;
  for (const auto& rule : policy.rules) {
    if (!include_builtin && rule->layer() == PolicyLayer::Builtin) continue;
    for (const RuleExample& ex : rule->examples()) {
      if (std::optional<std::string> failure = detail::exampleFailure(policy, *rule, ex)) {
        failures.push_back({ex.where, std::move(*failure)});
      }
    }
  }
  return failures;
}

}  // namespace toolguard
