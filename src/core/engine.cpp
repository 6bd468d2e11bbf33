// The decision engine: strictest finding wins, then tool policy, then default.
#include "toolguard/engine.hpp"

#include <exception>

#include "rule_index.hpp"

namespace toolguard {
namespace detail {

struct CompiledPolicy {
  explicit CompiledPolicy(Policy p) : policy(std::move(p)), index(policy.rules) {}
  Policy policy;
  RuleIndex index;
};

}  // namespace detail

namespace {

std::string modelReason(const Decision& d) {
  std::string who = d.rule_id.empty() ? std::string(toString(d.basis)) : "rule " + d.rule_id;
  switch (d.verdict) {
    case Verdict::Allow:
      return "";
    case Verdict::Escalate:
    case Verdict::Ask:
      return "This call needs a person's approval (toolguard, " + who + "): " + d.reason;
    case Verdict::Deny:
      return "Blocked by toolguard (" + who + "): " + d.reason +
             ". Do not retry the same call; explain or choose another approach.";
    case Verdict::Abort:
      return "toolguard stopped the generation (" + who + "): " + d.reason;
  }
  return d.reason;
}

Decision errorDecision(std::string message) {
  Decision d;
  d.verdict = d.policy_verdict = Verdict::Deny;
  d.basis = DecisionBasis::Error;
  d.reason = std::move(message);
  d.source = SourceLocation{"<engine>", 0, 0};
  d.model_reason = modelReason(d);  // no approval key: nothing can approve a broken call
  return d;
}

void resolve(Decision& d, const ToolCall& call) {
  d.verdict = d.policy_verdict;
  if (d.verdict == Verdict::Escalate) {
    d.verdict = Verdict::Ask;
    d.resolution = "escalate becomes ask: no LLM validator is configured";
  }
  if (d.verdict == Verdict::Ask && call.context.mode == InteractionMode::Headless) {
    d.verdict = Verdict::Deny;
    if (!d.resolution.empty()) d.resolution += "; ";
    d.resolution += "ask becomes deny: the call is headless, no one can approve it";
  }
}

}  // namespace

Engine::Engine(Policy policy)
    : compiled_(std::make_shared<const detail::CompiledPolicy>(std::move(policy))) {}

const Policy& Engine::policy() const {
  return compiled_->policy;
}

const ToolInfo& Engine::toolInfo(std::string_view name) const {
  return compiled_->policy.tools.resolve(name);
}

std::string approvalKey(const ToolCall& call) {
  return call.tool + " " + call.args.dump();
}

Decision Engine::decide(const ToolCall& call) const {
  try {
    if (call.tool.empty()) return errorDecision("the call has no tool name");
    if (!call.args.is_object() && !call.args.is_null()) {
      return errorDecision("args: expected a JSON object");
    }
    if (jsonDepth(call.args) > kMaxArgumentDepth) {
      return errorDecision("args: nested deeper than " + std::to_string(kMaxArgumentDepth) +
                           " levels");
    }
    const Policy& policy = compiled_->policy;
    const ToolInfo& info = policy.tools.resolve(call.tool);
    const CallView view(call, info);

    Decision d;
    const Rule* winner = nullptr;
    std::optional<Finding> best;
    for (uint32_t i : compiled_->index.candidates(call.tool, info)) {
      const auto& rule_ptr = policy.rules[i];
      const Rule& rule = *rule_ptr;
      std::optional<Finding> finding;
      try {
        finding = rule.evaluate(view);
      } catch (const std::exception& e) {
        finding = Finding{Verdict::Deny, "rule " + rule.id() + " failed: " + e.what()};
      }
      if (finding && (!best || isStricter(finding->verdict, best->verdict))) {
        best = finding;
        winner = &rule;
      }
      d.consulted.push_back(RuleTrace{rule_ptr, std::move(finding)});
    }

    if (winner != nullptr) {
      d.basis = DecisionBasis::Rule;
      d.policy_verdict = best->verdict;
      d.reason = std::move(best->reason);
      d.rule_id = winner->id();
      d.source = winner->source();
    } else if (auto tool_policy = effectivePolicy(info)) {
      d.basis = DecisionBasis::ToolPolicy;
      d.policy_verdict = toVerdict(*tool_policy);
      d.reason = "tool " + call.tool + " has policy " + std::string(toString(*tool_policy));
      auto origin = policy.tool_origins.find(call.tool);
      d.source = origin != policy.tool_origins.end() ? origin->second.source
                                                     : SourceLocation{"<builtin catalog>", 0, 0};
    } else {
      d.basis = DecisionBasis::Default;
      d.policy_verdict = policy.default_verdict;
      d.reason = "no rule matched; the default verdict is " +
                 std::string(toString(policy.default_verdict));
      d.source = policy.default_source;
    }
    resolve(d, call);
    d.approval_key = approvalKey(call);
    d.model_reason = modelReason(d);
    return d;
  } catch (const std::exception& e) {
    return errorDecision(std::string("internal error: ") + e.what());
  } catch (...) {
    return errorDecision("internal error");
  }
}

}  // namespace toolguard
