// The fluent policy builder.
#include "toolguard/policy_builder.hpp"

#include <algorithm>

#include "core/rule_conditions.hpp"
#include "policy/embedded_profiles.hpp"
#include "policy/policy_document.hpp"
#include "sandbox/proxy_hosts.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {

PolicyBuilder::PolicyBuilder() = default;

PolicyBuilder::PolicyBuilder(Policy base) : policy_(std::move(base)) {}

std::string PolicyBuilder::nextId(std::string_view stem) {
  return "code-" + std::string(stem) + "-" + std::to_string(++counter_);
}

PolicyBuilder& PolicyBuilder::addPatternRule(std::string_view tool_pattern, Verdict verdict,
                                             std::string reason) {
  RuleSpec spec;
  spec.header.id = nextId(std::string(toString(verdict)) + "-" + std::string(tool_pattern));
  spec.header.target.tools = {std::string(tool_pattern)};
  spec.verdict = verdict;
  spec.reason = reason.empty() ? "tool " + std::string(tool_pattern) + " is set to " +
                                     std::string(toString(verdict)) + " in code"
                               : std::move(reason);
  return rule(std::move(spec));
}

PolicyBuilder& PolicyBuilder::addCategoryRule(std::string_view category, Verdict verdict,
                                              std::string reason) {
  RuleSpec spec;
  spec.header.id = nextId(std::string(toString(verdict)) + "-category-" + std::string(category));
  spec.header.target.categories = {std::string(category)};
  spec.verdict = verdict;
  spec.reason = reason.empty() ? "category " + std::string(category) + " is set to " +
                                     std::string(toString(verdict)) + " in code"
                               : std::move(reason);
  return rule(std::move(spec));
}

PolicyBuilder& PolicyBuilder::allow(std::string_view p, std::string r) {
  return addPatternRule(p, Verdict::Allow, std::move(r));
}
PolicyBuilder& PolicyBuilder::deny(std::string_view p, std::string r) {
  return addPatternRule(p, Verdict::Deny, std::move(r));
}
PolicyBuilder& PolicyBuilder::requireApproval(std::string_view p, std::string r) {
  return addPatternRule(p, Verdict::Ask, std::move(r));
}
PolicyBuilder& PolicyBuilder::abort(std::string_view p, std::string r) {
  return addPatternRule(p, Verdict::Abort, std::move(r));
}
PolicyBuilder& PolicyBuilder::allowCategory(std::string_view c, std::string r) {
  return addCategoryRule(c, Verdict::Allow, std::move(r));
}
PolicyBuilder& PolicyBuilder::denyCategory(std::string_view c, std::string r) {
  return addCategoryRule(c, Verdict::Deny, std::move(r));
}
PolicyBuilder& PolicyBuilder::requireApprovalForCategory(std::string_view c, std::string r) {
  return addCategoryRule(c, Verdict::Ask, std::move(r));
}

PolicyBuilder& PolicyBuilder::maxRisk(RiskLevel level) {
  RuleSpec spec;
  spec.header.id = nextId("max-risk");
  spec.risk_above = level;
  spec.verdict = Verdict::Deny;
  spec.reason =
      "the tool's risk is above the allowed maximum (" + std::string(toString(level)) + ")";
  return rule(std::move(spec));
}

PolicyBuilder& PolicyBuilder::defaultAction(Verdict verdict) {
  policy_.default_verdict = verdict;
  if (verdict == Verdict::Deny) policy_.rules_before_deny_default = policy_.rules.size();
  policy_.default_source = SourceLocation{"<code>", 0, 0};
  policy_.default_layer = PolicyLayer::Code;
  return *this;
}

PolicyBuilder& PolicyBuilder::setDefaultPolicy(ToolPolicy policy) {
  default_tool_policy_ = policy;
  return *this;
}

PolicyBuilder& PolicyBuilder::registerTool(ToolInfo tool) {
  if (!tool.policy && default_tool_policy_) tool.policy = default_tool_policy_;
  policy_.tool_origins[tool.name] =
      ToolOrigin{PolicyLayer::Code, SourceLocation{"<code>", 0, 0}, tool.policy.has_value()};
  policy_.tools.add(std::move(tool));
  return *this;
}

PolicyBuilder& PolicyBuilder::label(std::string label, RuleSpec matchers) {
  if (matchers.header.source.file.empty()) matchers.header.source = SourceLocation{"<code>", 0, 0};
  if (matchers.header.id.empty()) matchers.header.id = nextId("label");
  if (!detail::isLabelName(label)) {
    throw PolicyError(matchers.header.source, "label: '" + label + "' " + detail::kLabelNameRule);
  }
  // Compiled as an ask, so that its paths are judged one by one.
  matchers.verdict = Verdict::Ask;
  const RuleTarget& t = matchers.header.target;
  const bool targeted = !t.tools.empty() || !t.categories.empty() || !t.kinds.empty();
  const SourceLocation where = matchers.header.source;
  std::shared_ptr<const Rule> rule = compileRule(std::move(matchers));
  if (!targeted && !ruleHasConditions(*rule)) {
    throw PolicyError(where, "label " + rule->id() +
                                 ": it would match every call; name its tools, kinds or "
                                 "conditions");
  }
  policy_.label_rules.push_back(LabelRule{std::move(label), std::move(rule)});
  return *this;
}

PolicyBuilder& PolicyBuilder::sessions(SessionSettings settings) {
  settings.layer = PolicyLayer::Code;
  policy_.sessions = std::move(settings);
  return *this;
}

PolicyBuilder& PolicyBuilder::rule(RuleSpec spec) {
  if (spec.header.source.file.empty()) spec.header.source = SourceLocation{"<code>", 0, 0};
  if (spec.header.id.empty()) spec.header.id = nextId("rule");
  if (!spec.sandbox_writable.empty() || !spec.sandbox_hosts.empty()) {
    if (spec.verdict != Verdict::Allow || !spec.first_match.empty()) {
      throw PolicyError(spec.header.source,
                        "rule " + spec.header.id +
                            ": sandbox writable and hosts go on a rule whose verdict is allow");
    }
    for (const std::string& host : spec.sandbox_hosts) {
      if (Expected<sandbox::HostPattern> pattern = sandbox::parseHostPattern(host); !pattern) {
        throw PolicyError(spec.header.source,
                          "rule " + spec.header.id + ": sandbox.hosts: " + pattern.error());
      }
    }
    for (const std::string& place : spec.sandbox_writable) {
      if (place.empty() || (place[0] != '/' && place[0] != '~')) {
        throw PolicyError(spec.header.source, "rule " + spec.header.id + ": sandbox.writable: " +
                                                  place + " is not an absolute or ~ place");
      }
    }
    policy_.rule_sandbox_grants[spec.header.id] = {spec.sandbox_writable, spec.sandbox_hosts};
  }
  policy_.rules.push_back(compileRule(std::move(spec)));
  return *this;
}

PolicyBuilder& PolicyBuilder::rule(std::shared_ptr<const Rule> custom_rule) {
  policy_.rules.push_back(std::move(custom_rule));
  return *this;
}

PolicyBuilder& PolicyBuilder::policyFile(const std::filesystem::path& file) {
  mergePolicyFile(policy_, file, PolicyLayer::Explicit);
  return *this;
}

PolicyBuilder& PolicyBuilder::profile(std::string_view name) {
  if (!detail::mergeProfile(policy_, name, PolicyLayer::Builtin)) {
    throw PolicyError(SourceLocation{"<code>", 0, 0}, detail::unknownProfileMessage(name));
  }
  return *this;
}

PolicyBuilder& PolicyBuilder::validateArgs(std::string_view tool_pattern, std::string name,
                                           ArgumentValidator validator) {
  policy_.argument_validators.push_back(
      ArgumentValidatorEntry{std::string(tool_pattern), std::move(name), std::move(validator)});
  return *this;
}

PolicyBuilder& PolicyBuilder::workspaceRoot(std::string root) {
  policy_.paths.workspace_roots.push_back(std::move(root));
  return *this;
}

PolicyBuilder& PolicyBuilder::caseSensitivity(CaseSensitivity value) {
  policy_.paths.case_sensitivity = value;
  return *this;
}

PolicyBuilder& PolicyBuilder::rateLimit(RateLimit limit) {
  limit.layer = PolicyLayer::Code;
  policy_.rate_limits.push_back(std::move(limit));
  return *this;
}

PolicyBuilder& PolicyBuilder::sandbox(const SandboxSettings& additions) {
  SandboxSettings& sandbox = policy_.sandbox;
  for (auto [to, from] : {std::pair{&sandbox.writable, &additions.writable},
                          {&sandbox.read_only, &additions.read_only},
                          {&sandbox.deny_read, &additions.deny_read},
                          {&sandbox.deny_read_except, &additions.deny_read_except},
                          {&sandbox.hosts, &additions.hosts}}) {
    to->insert(to->end(), from->begin(), from->end());
  }
  sandbox.network = additions.network;
  sandbox.when_unavailable = additions.when_unavailable;
  policy_.sandbox_layer = PolicyLayer::Code;
  return *this;
}

PolicyBuilder& PolicyBuilder::argumentLimits(size_t max_bytes, size_t max_depth) {
  policy_.limits.max_bytes = max_bytes;
  policy_.limits.max_depth = std::min(max_depth, kMaxArgumentDepth);
  return *this;
}

Policy PolicyBuilder::buildPolicy() const {
  // The built-in profiles' examples are checked by the test suite
  // (ProfileTrees.EveryProfilesExamplesPass), not in every program.
  if (auto failures = checkRuleExamples(policy_, /*include_builtin=*/false); !failures.empty()) {
    throw PolicyError(std::move(failures));
  }
  return policy_;
}

Engine PolicyBuilder::build() const {
  return Engine(buildPolicy());
}

}  // namespace toolguard
