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

// The strictest finding so far, the rule that gave it and the command it is about.
struct Judgement {
  std::optional<Finding> finding;
  const Rule* rule = nullptr;
  std::string command;

  void consider(const std::optional<Finding>& f, const Rule* by, const std::string& on) {
    if (f && (!finding || isStricter(f->verdict, finding->verdict))) {
      finding = f;
      rule = by;
      command = on;
    }
  }
};

// A rule that throws has a deny finding: an internal error never allows.
template <typename Evaluate>
std::optional<Finding> safely(const Rule& rule, Evaluate evaluate) {
  try {
    return evaluate();
  } catch (const std::exception& e) {
    return Finding{Verdict::Deny, "rule " + rule.id() + " failed: " + e.what()};
  } catch (...) {
    return Finding{Verdict::Deny, "rule " + rule.id() + " failed"};
  }
}

// What a simple command no rule knows gets: the LLM validator, else a person.
class UnknownCommandRule final : public Rule {
 public:
  UnknownCommandRule()
      : Rule(shellRuleHeader("shell-unknown-command", "<builtin:shell>", PolicyLayer::Builtin)) {}
  std::optional<Finding> evaluate(const CallView&) const override { return std::nullopt; }
  std::string describe() const override {
    return "a simple command no rule has a finding for -> escalate";
  }
};

const std::shared_ptr<const Rule>& unknownCommandRule() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const UnknownCommandRule>();
  return rule;
}

// Each simple command is judged on its own by every command rule; a command
// with words that no rule has a finding for is escalated. The program gets
// the strictest verdict of its commands.
void judgeCommands(const ShellProgram& program,
                   const std::vector<const std::shared_ptr<const Rule>*>& rules,
                   const CallView& view, Judgement& best, Decision& d) {
  std::vector<bool> wraps(program.commands.size(), false);
  for (const SimpleCommand& command : program.commands) {
    for (const ShellWrapper& w : command.wrappers) {
      if (w.command_index < wraps.size()) wraps[w.command_index] = true;
    }
  }
  for (size_t c = 0; c < program.commands.size(); ++c) {
    const SimpleCommand& command = program.commands[c];
    bool found = false;
    for (const std::shared_ptr<const Rule>* rule : rules) {
      std::optional<Finding> finding =
          safely(**rule, [&] { return (*rule)->evaluateCommand(command, view); });
      if (!finding) continue;
      found = true;
      best.consider(finding, rule->get(), command.text);
      d.consulted.push_back(RuleTrace{*rule, std::move(finding), c});
    }
    // A wrapper (sudo, env, bash -c, xargs, ...) is judged through the
    // commands it runs, which are in the program too.
    if (!found && !command.words.empty() && !wraps[c]) {
      Finding unknown{Verdict::Escalate, "no rule knows the command '" + command.name() + "'"};
      best.consider(unknown, unknownCommandRule().get(), command.text);
      d.consulted.push_back(RuleTrace{unknownCommandRule(), std::move(unknown), c});
    }
  }
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
    Judgement best;
    std::vector<const std::shared_ptr<const Rule>*> command_rules;
    for (uint32_t i : compiled_->index.candidates(call.tool, info)) {
      const auto& rule_ptr = policy.rules[i];
      if (rule_ptr->judgesShellCommands()) {
        command_rules.push_back(&rule_ptr);
        continue;
      }
      std::optional<Finding> finding = safely(*rule_ptr, [&] { return rule_ptr->evaluate(view); });
      best.consider(finding, rule_ptr.get(), "");
      d.consulted.push_back(RuleTrace{rule_ptr, std::move(finding), std::nullopt});
    }
    if (const ShellProgram* program = view.shellProgram(); program && !command_rules.empty()) {
      judgeCommands(*program, command_rules, view, best, d);
    }
    const Rule* winner = best.rule;
    if (winner != nullptr) {
      d.basis = DecisionBasis::Rule;
      d.policy_verdict = best.finding->verdict;
      d.reason = std::move(best.finding->reason);
      d.rule_id = winner->id();
      d.source = winner->source();
      d.decided_on = std::move(best.command);
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
