// A deny default makes the policy an allow-list (allow_list.hpp).
#include "allow_list.hpp"

#include "toolguard/rule.hpp"

namespace toolguard::detail {
namespace {

// Named in decisions; it never evaluates a call itself.
class AllowListRule final : public Rule {
 public:
  AllowListRule() : Rule(header()) {}
  std::optional<Finding> evaluate(const CallView&) const override { return std::nullopt; }
  std::string describe() const override {
    return "with default deny, what no rule or tool policy of the allow-list allows -> deny";
  }

 private:
  static RuleHeader header() {
    RuleHeader h;
    h.id = "allow-list";
    h.source.file = "<builtin:default-deny>";
    h.layer = PolicyLayer::Builtin;
    return h;
  }
};

}  // namespace

bool judgedAsAllowList(const Policy& policy, const ToolInfo& tool) {
  if (policy.default_verdict != Verdict::Deny) return false;
  auto origin = policy.tool_origins.find(tool.name);
  if (origin == policy.tool_origins.end() || !origin->second.sets_policy) return true;
  std::optional<ToolPolicy> own = effectivePolicy(tool);
  return !own || *own == ToolPolicy::Deny;
}

bool speaksForTheList(const CompiledPolicy& compiled, size_t index) {
  const Policy& policy = compiled.policy;
  return policy.default_verdict != Verdict::Deny || index >= policy.rules_before_deny_default ||
         index >= policy.rules.size() || policy.rules[index]->layer() != PolicyLayer::Builtin;
}

std::optional<Finding> onAllowList(const CompiledPolicy& compiled, size_t index,
                                   std::optional<Finding> finding, bool allow_list, bool& granted) {
  if (!allow_list || !finding) return finding;
  if (!speaksForTheList(compiled, index)) {
    if (finding->verdict == Verdict::Allow) return std::nullopt;
    return finding;
  }
  const Verdict v = finding->verdict;
  granted = granted || v == Verdict::Allow || v == Verdict::Ask || v == Verdict::Escalate;
  return finding;
}

const std::shared_ptr<const Rule>& allowListRule() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const AllowListRule>();
  return rule;
}

Finding notOnAllowList(const std::string& what) {
  return Finding{Verdict::Deny,
                 "the policy denies by default and none of its rules allows " + what};
}

}  // namespace toolguard::detail
