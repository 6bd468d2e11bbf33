// A call's labels, and the rule of two over its session.
#include "engine/session_judgement.hpp"

#include <algorithm>

#include "commands/command_accesses.hpp"
#include "core/rule_conditions.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard::detail {
namespace {

std::vector<std::shared_ptr<const Rule>> rulesOf(const std::vector<LabelRule>& labels) {
  std::vector<std::shared_ptr<const Rule>> rules;
  rules.reserve(labels.size());
  for (const LabelRule& label : labels) rules.push_back(label.rule);
  return rules;
}

// The rule of two's place in decisions and `explain`.
class RuleOfTwo final : public Rule {
 public:
  RuleOfTwo()
      : Rule(RuleHeader{"session-rule-of-two",
                        SourceLocation{"<builtin:sessions>", 0, 0},
                        PolicyLayer::Builtin,
                        {}}) {}
  std::optional<Finding> evaluate(const CallView&) const override { return std::nullopt; }
  std::string describe() const override {
    return "an outward call, when the session holds untrusted input and sensitive data -> "
           "sessions.rule_of_two";
  }
};

const std::shared_ptr<const Rule>& ruleOfTwo() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const RuleOfTwo>();
  return rule;
}

bool has(const std::vector<std::string>& labels, const char* label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

// Where the session got `label`: the earlier call, or this one.
std::string broughtBy(const SessionState& session, const std::vector<std::string>& own,
                      const char* label, const std::string& what) {
  if (const SessionEvent* event = session.latestWith(label)) {
    const size_t back = session.eventsAfter(*event) + 1;
    return what + " (" + event->summary + ", " +
           (back == 1 ? std::string("the call before") : std::to_string(back) + " calls back") +
           ")";
  }
  if (has(own, label)) return what + " (this call)";
  return what + " (the session's memory could not be read)";
}

}  // namespace

CompiledLabels::CompiledLabels(const std::vector<LabelRule>& labels)
    : rules_(rulesOf(labels)), index_(rules_) {
  for (const LabelRule& label : labels) {
    labels_.push_back(label.label);
    by_path_.push_back(restrictsPathByPath(*label.rule));
  }
}

const std::vector<PathExample>& CompiledLabels::examples() const {
  std::call_once(examples_once_, [this] {
    const std::string home = homeDirectory();
    for (size_t i = 0; i < rules_.size(); ++i) {
      if (!by_path_[i]) continue;
      for (const std::string& glob : rules_[i]->pathGlobs()) {
        for (PathExample& example : examplesOfGlob(glob, home)) {
          examples_.push_back(std::move(example));
        }
      }
    }
  });
  return examples_;
}

bool CompiledLabels::matchesSomePath(const Rule& rule, const std::vector<PathAccess>& accesses,
                                     const CallView& view) const {
  const PathExamplesSource examples = [this]() -> const std::vector<PathExample>& {
    return this->examples();
  };
  for (const PathAccess& access : accesses) {
    for (const PathAccess& probe : pathProbes(access, examples, view)) {
      if (safely(rule, [&] { return rule.evaluateAccess(probe, view); })) return true;
    }
  }
  return false;
}

bool CompiledLabels::matches(uint32_t index, const CallView& view) const {
  const Rule& rule = *rules_[index];
  const ShellProgram* program = view.shellProgram();
  if (by_path_[index]) {
    if (program == nullptr) return matchesSomePath(rule, view.pathAccesses(), view);
    for (const SimpleCommand& command : program->commands) {
      const CommandScene scene{command, *program, view, view.home()};
      if (matchesSomePath(rule, commandAccesses(scene), view)) return true;
    }
    return false;
  }
  if (rule.judgesShellCommands() && program != nullptr) {
    return std::any_of(
        program->commands.begin(), program->commands.end(), [&](const SimpleCommand& command) {
          return safely(rule, [&] { return rule.evaluateCommand(command, view); }).has_value();
        });
  }
  return safely(rule, [&] { return rule.evaluate(view); }).has_value();
}

std::vector<std::string> CompiledLabels::of(const CallView& view) const {
  std::vector<std::string> found;
  // A rule about paths meets every path the call reads or writes, whatever
  // the tool (a shell command's operands, an MCP tool's path argument);
  // the others only the calls their target selects.
  const std::vector<uint32_t> candidates = index_.candidates(view.toolName(), view.tool());
  for (uint32_t i = 0; i < rules_.size(); ++i) {
    if (has(found, labels_[i].c_str())) continue;
    const bool considered =
        by_path_[i] || std::binary_search(candidates.begin(), candidates.end(), i);
    if (considered && matches(i, view)) found.push_back(labels_[i]);
  }
  // A program that cannot be read may do anything a readable one could.
  const ShellProgram* program = view.shellProgram();
  if (program != nullptr && (program->parse_error || program->too_deep)) {
    for (const char* label : {kUntrustedLabel, kSensitiveLabel, kOutwardLabel}) {
      if (!has(found, label)) found.emplace_back(label);
    }
  }
  return found;
}

void judgeSession(const Policy& policy, const CompiledLabels& labels, const CallView& view,
                  StrictestFinding& best, Decision& d) {
  const SessionState* session = view.call().context.session_state.get();
  if (session == nullptr) return;
  d.labels = labels.of(view);
  const std::optional<Verdict> verdict = policy.sessions.rule_of_two;
  if (!verdict || !has(d.labels, kOutwardLabel)) return;
  // Untrusted input must have come before (what this call brings in
  // arrives after it is sent); sensitive data may come with this call
  // (`curl -d @.env`).
  if (!session->holdsLabel(kUntrustedLabel) ||
      !(has(d.labels, kSensitiveLabel) || session->holdsLabel(kSensitiveLabel))) {
    return;
  }
  Finding finding{*verdict,
                  "this call acts outward in a session that holds " +
                      broughtBy(*session, d.labels, kUntrustedLabel, "untrusted input") + " and " +
                      broughtBy(*session, d.labels, kSensitiveLabel, "sensitive data") +
                      ": together they could send the data where the input says (the rule of two)"};
  best.consider(finding, ruleOfTwo().get(), "");
  d.consulted.push_back(RuleTrace{ruleOfTwo(), std::move(finding), std::nullopt});
}

}  // namespace toolguard::detail
