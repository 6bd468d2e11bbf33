// A rule whose cases decide in order: the first case that matches gives the
// rule's finding (other agents' ordered rule lists: guard plugins, priorities).
#include "first_match_rule.hpp"

#include "rule_index.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

class FirstMatchRule final : public Rule {
 public:
  FirstMatchRule(RuleHeader header, std::vector<std::shared_ptr<const Rule>> cases,
                 std::vector<RuleExample> examples)
      : Rule(std::move(header)), cases_(std::move(cases)), examples_(std::move(examples)) {
    for (const auto& c : cases_) judges_commands_ = judges_commands_ || c->judgesShellCommands();
  }

  const std::vector<RuleExample>& examples() const override { return examples_; }

  bool judgesShellCommands() const override { return judges_commands_; }

  // The whole call: cases about single shell commands abstain here when
  // the call has a program (its commands are judged one by one); without
  // one, such a case judges the call (a `local:` case, say).
  std::optional<Finding> evaluate(const CallView& view) const override {
    const bool has_program = view.shellProgram() != nullptr;
    for (const auto& c : cases_) {
      if ((c->judgesShellCommands() && has_program) || !selects(*c, view)) continue;
      if (auto finding = c->evaluate(view)) return decided(std::move(*finding), *c);
    }
    return std::nullopt;
  }

  // One simple command: a case about commands tests it, any other case the call.
  std::optional<Finding> evaluateCommand(const SimpleCommand& command,
                                         const CallView& view) const override {
    for (const auto& c : cases_) {
      if (!selects(*c, view)) continue;
      std::optional<Finding> finding =
          c->judgesShellCommands() ? c->evaluateCommand(command, view) : c->evaluate(view);
      if (finding) return decided(std::move(*finding), *c);
    }
    return std::nullopt;
  }

  std::string describe() const override {
    std::string out = "first match of:";
    for (size_t i = 0; i < cases_.size(); ++i) {
      out += " (" + std::to_string(i + 1) + ") " + cases_[i]->describe();
    }
    return out;
  }

 private:
  static bool selects(const Rule& c, const CallView& view) {
    return targetSelects(c.target(), view.toolName(), view.tool());
  }

  static Finding decided(Finding finding, const Rule& c) {
    if (finding.decided_by == nullptr) finding.decided_by = &c;
    return finding;
  }

  std::vector<std::shared_ptr<const Rule>> cases_;
  std::vector<RuleExample> examples_;
  bool judges_commands_ = false;
};

}  // namespace

std::shared_ptr<const Rule> compileFirstMatchRule(RuleSpec spec, const CaseCompiler& compile_case) {
  std::vector<std::shared_ptr<const Rule>> cases;
  std::vector<PolicyDiagnostic> errors;
  for (size_t i = 0; i < spec.first_match.size(); ++i) {
    RuleSpec& c = spec.first_match[i];
    if (c.header.id.empty()) c.header.id = spec.header.id + "#" + std::to_string(i + 1);
    c.header.layer = spec.header.layer;
    if (c.header.source.file.empty()) c.header.source = spec.header.source;
    if (!c.first_match.empty()) {
      errors.push_back({c.header.source, "a first_match case cannot have cases of its own"});
      continue;
    }
    try {
      cases.push_back(compile_case(std::move(c)));
    } catch (const PolicyError& e) {
      errors.insert(errors.end(), e.errors().begin(), e.errors().end());
    }
  }
  if (!errors.empty()) throw PolicyError(std::move(errors));
  return std::make_shared<const FirstMatchRule>(std::move(spec.header), std::move(cases),
                                                std::move(spec.examples));
}

}  // namespace toolguard::detail
