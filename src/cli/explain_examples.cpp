// The failing examples of a policy's rules, with why each fails
// (explain_examples.hpp).
#include "cli/explain_examples.hpp"

#include "cli/explain_unmatched.hpp"
#include "policy/rule_examples.hpp"
#include "toolguard/call_view.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

// What `rule` says about the example's call, in a sentence: the finding that
// made it match, or why it did not.
std::string whyExampleFails(const Policy& policy, const Rule& rule, const RuleExample& ex) {
  const ToolInfo& tool = policy.tools.resolve(ex.call.tool);
  const CallView view(ex.call, tool);
  if (ex.should_match) return whyNotMatched(rule, view);
  const std::optional<Finding> finding = detail::findingOnExample(policy, rule, ex.call);
  if (!finding) return "";
  return "the rule says " + std::string(toString(finding->verdict)) + ": " + finding->reason;
}

}  // namespace

json failingExamplesJson(const Policy& policy) {
  json out = json::array();
  for (const auto& rule : policy.rules) {
    if (rule->layer() == PolicyLayer::Builtin) continue;
    for (const RuleExample& ex : rule->examples()) {
      std::optional<std::string> failure = detail::exampleFailure(policy, *rule, ex);
      if (!failure) continue;
      out.push_back({{"source", ex.where.toString()},
                     {"rule", rule->id()},
                     {"expect", ex.should_match ? "match" : "no-match"},
                     {"call", {{"tool", ex.call.tool}, {"args", ex.call.args}}},
                     {"message", *failure},
                     {"why", whyExampleFails(policy, *rule, ex)}});
    }
  }
  return out;
}

}  // namespace toolguard::cli
