// Checking every rule's examples against the rule itself.
#include "policy/rule_examples.hpp"

#include "core/rule_index.hpp"

namespace toolguard {
namespace detail {

std::optional<std::string> exampleFailure(const Policy& policy, const Rule& rule,
                                          const RuleExample& ex) {
  const ToolInfo& tool = policy.tools.resolve(ex.call.tool);
  const bool selected = targetSelects(rule.target(), ex.call.tool, tool);
  std::optional<Finding> finding;
  if (selected) {
    const CallView view(ex.call, tool);
    const ShellProgram* program = view.shellProgram();
    if (!rule.judgesShellCommands() || program == nullptr) {
      finding = rule.evaluate(view);
    } else {
      for (const SimpleCommand& command : program->commands) {
        if (!finding) finding = rule.evaluateCommand(command, view);
      }
    }
  }
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
