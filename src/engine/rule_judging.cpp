// Consulting the rules: strictest finding wins, then tool policy, then default.
#include "rule_judging.hpp"

#include <algorithm>

#include "allow_list.hpp"
#include "build_file_judgement.hpp"
#include "commands/command_accesses.hpp"
#include "commands/program_specs.hpp"
#include "commands/safe_commands.hpp"
#include "commands/shell_facts.hpp"
#include "engine/path_judgement.hpp"
#include "engine/session_judgement.hpp"
#include "engine/strictest_finding.hpp"

namespace toolguard::detail {
namespace {

// The engine's own findings about shell programs (named in decisions): the
// LLM validator, else a person, decides.
class EngineShellRule final : public Rule {
 public:
  EngineShellRule(std::string id, std::string description)
      : Rule(shellRuleHeader(std::move(id), "<builtin:shell>", PolicyLayer::Builtin)),
        description_(std::move(description)) {}
  std::optional<Finding> evaluate(const CallView&) const override { return std::nullopt; }
  std::string describe() const override { return description_; }

 private:
  std::string description_;
};

// What a simple command no rule knows gets.
const std::shared_ptr<const Rule>& unknownCommandRule() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const EngineShellRule>(
      "shell-unknown-command", "a simple command no rule has a finding for -> escalate");
  return rule;
}

// What a program that does not parse gets when no rule was stricter than allow.
const std::shared_ptr<const Rule>& unreadableProgramRule() {
  static const std::shared_ptr<const Rule> rule = std::make_shared<const EngineShellRule>(
      "shell-unreadable-program",
      "a program that does not parse, or is wrapped too deeply, is never allowed -> escalate");
  return rule;
}

// Each simple command is judged on its own: by every command rule, then the
// paths it reads and writes by the path rules; when there are command rules, a
// command with words that none of them has a finding for is escalated. The
// program gets the strictest verdict of its commands.
// On an allow-list (allow_list.hpp) a command no counting rule allows is
// denied, unless it is a known wrapper whose command is judged on its own.
void judgeCommands(const CompiledPolicy& compiled, const ShellProgram& program,
                   const std::vector<const std::shared_ptr<const Rule>*>& rules,
                   const CallView& view, bool allow_list, StrictestFinding& best, Decision& d) {
  std::vector<bool> wraps(program.commands.size(), false);
  for (const SimpleCommand& command : program.commands) {
    for (const ShellWrapper& w : command.wrappers) {
      if (w.command_index < wraps.size()) wraps[w.command_index] = true;
    }
  }
  for (size_t c = 0; c < program.commands.size(); ++c) {
    const SimpleCommand& command = program.commands[c];
    bool found = false;
    bool granted = false;
    for (const std::shared_ptr<const Rule>* rule : rules) {
      std::optional<Finding> finding =
          onAllowList(compiled, static_cast<size_t>(rule - compiled.policy.rules.data()),
                      safely(**rule, [&] { return (*rule)->evaluateCommand(command, view); }),
                      allow_list, granted);
      if (!finding) continue;
      found = true;
      best.consider(finding, rule->get(), command.text);
      d.consulted.push_back(RuleTrace{*rule, std::move(finding), c});
    }
    // Then the paths it reads and writes (a command rule's equally strict,
    // more specific finding stays: `rm -rf /` is a protected delete).
    const CommandScene scene{command, program, view, view.home()};
    found = judgePathAccesses(compiled, view, commandAccesses(scene), c, command.text, best, d) ||
            found;
    // A wrapper (sudo, env, bash -c, xargs, ...) is judged through the
    // commands it runs, which are in the program too.
    // A wrapper's own words must be known too (`uv run --with PKG`, `npx
    // PKG`, `env -C /tmp make` run more than the command they wrap).
    if (allow_list) {
      // Every command needs the list, a bare redirection too; and a rule
      // about a command's words says nothing about files its redirections
      // write (`git status > notes.txt`).
      std::optional<std::string> not_listed;
      // A wrapper passes on its own only when it writes nothing itself
      // (`time -o FILE`): what it runs is judged as a command of its own.
      auto writes = [&] {
        const std::vector<PathAccess> accesses = commandAccesses(scene);
        return std::any_of(accesses.begin(), accesses.end(),
                           [](const PathAccess& a) { return a.kind == PathAccessKind::Write; });
      };
      if (!granted &&
          !(wraps[c] && !command.words.empty() && checkWrapperKnown(scene) && !writes())) {
        not_listed = command.words.empty() ? "the redirection '" + command.text + "'"
                                           : "the command '" + command.nameWithSubcommand() + "'";
      } else if (std::any_of(command.redirects.begin(), command.redirects.end(),
                             redirectWritesAFile)) {
        not_listed =
            "writing a file through a redirection of '" + command.nameWithSubcommand() + "'";
      }
      if (not_listed) {
        Finding denied = notOnAllowList(*not_listed);
        best.consider(denied, allowListRule().get(), command.text);
        d.consulted.push_back(RuleTrace{allowListRule(), std::move(denied), c});
        continue;
      }
    }
    Expected<void> wrapper_known;
    if (!found && !rules.empty() && !command.words.empty() && wraps[c] &&
        !(wrapper_known = checkWrapperKnown(scene))) {
      Finding unknown{Verdict::Escalate, "the command '" + command.nameWithSubcommand() +
                                             "' runs another, and " + wrapper_known.error()};
      best.consider(unknown, unknownCommandRule().get(), command.text);
      d.consulted.push_back(RuleTrace{unknownCommandRule(), std::move(unknown), c});
    }
    if (!found && !rules.empty() && !command.words.empty() && !wraps[c]) {
      // Why ordinary work did not take it: the word or variable not known to be harmless.
      std::string why;
      ordinaryWork(scene, why);
      Finding unknown{Verdict::Escalate, "no rule knows the command '" +
                                             command.nameWithSubcommand() + "'" +
                                             (why.empty() ? "" : ": " + why)};
      best.consider(unknown, unknownCommandRule().get(), command.text);
      d.consulted.push_back(RuleTrace{unknownCommandRule(), std::move(unknown), c});
    }
  }
}

}  // namespace

void judgeRules(const CompiledPolicy& compiled, const CallView& view, Decision& d) {
  const Policy& policy = compiled.policy;
  const ToolInfo& info = view.tool();
  const std::string& tool = view.toolName();
  StrictestFinding best;
  const bool allow_list = judgedAsAllowList(policy, info);
  bool granted = false;
  std::vector<const std::shared_ptr<const Rule>*> command_rules;
  const ShellProgram* program = view.shellProgram();
  for (uint32_t i : compiled.index.candidates(tool, info)) {
    if (compiled.is_path_rule[i]) continue;  // judged path by path below
    const auto& rule_ptr = policy.rules[i];
    // Rules about simple commands judge the whole call when there is no program.
    if (rule_ptr->judgesShellCommands() && program != nullptr) {
      command_rules.push_back(&rule_ptr);
      continue;
    }
    std::optional<Finding> finding =
        onAllowList(compiled, i, safely(*rule_ptr, [&] { return rule_ptr->evaluate(view); }),
                    allow_list, granted);
    best.consider(finding, rule_ptr.get(), "");
    d.consulted.push_back(RuleTrace{rule_ptr, std::move(finding), std::nullopt});
  }
  // Every path the call's own arguments read or write meets the path rules;
  // a shell tool's paths are found command by command.
  if (info.kind != ToolKind::Shell) {
    judgePathAccesses(compiled, view, view.pathAccesses(), std::nullopt, "", best, d);
    judgeBuildFileContent(compiled, view, best, d);
  }
  if (program != nullptr &&
      (!command_rules.empty() || !compiled.path_rules.empty() || allow_list)) {
    // A rule that allowed the whole call put the tool on the list; its
    // commands then meet the rules as they would without a deny default.
    judgeCommands(compiled, *program, command_rules, view, allow_list && !granted, best, d);
  }
  // A call no counting rule allowed, that some rule asked about or allowed
  // without the right to: the allow-list denies it. (With no finding at all,
  // the default below denies it.)
  const bool program_judged = program != nullptr && !program->commands.empty();
  if (allow_list && !granted && !program_judged && best.finding &&
      isStricter(Verdict::Deny, best.finding->verdict)) {
    Finding denied = notOnAllowList("the tool " + tool);
    best.consider(denied, allowListRule().get(), "");
    d.consulted.push_back(RuleTrace{allowListRule(), std::move(denied), std::nullopt});
  }
  // A program that does not parse, or is wrapped too deeply, is never allowed,
  // whatever rules its readable parts met (the default policy asks; a policy
  // without the built-in shell rules must not allow it either).
  if (program != nullptr && (program->parse_error || program->too_deep) &&
      (!best.finding || best.finding->verdict == Verdict::Allow)) {
    Finding unreadable{Verdict::Escalate,
                       program->too_deep ? "commands are wrapped too deeply to judge"
                                         : "the command does not parse (" + program->error + ")"};
    best.consider(unreadable, unreadableProgramRule().get(), "");
    d.consulted.push_back(RuleTrace{unreadableProgramRule(), std::move(unreadable), std::nullopt});
  }
  // What the call adds to its session, and the rule of two over it.
  if (view.call().context.session_state) judgeSession(policy, compiled.labels(), view, best, d);
  if (const Rule* winner = best.rule; winner != nullptr) {
    d.basis = DecisionBasis::Rule;
    d.policy_verdict = best.finding->verdict;
    d.reason = std::move(best.finding->reason);
    d.rule_id = winner->id();
    d.source = winner->source();
    d.decided_on = std::move(best.command);
  } else if (auto tool_policy = allow_list && effectivePolicy(info) != ToolPolicy::Deny
                                    ? std::nullopt
                                    : effectivePolicy(info)) {
    d.basis = DecisionBasis::ToolPolicy;
    d.policy_verdict = toVerdict(*tool_policy);
    d.reason = "tool " + tool + " has policy " + std::string(toString(*tool_policy));
    auto origin = policy.tool_origins.find(tool);
    d.source = origin != policy.tool_origins.end() ? origin->second.source
                                                   : SourceLocation{"<builtin catalog>", 0, 0};
  } else {
    d.basis = DecisionBasis::Default;
    d.policy_verdict = policy.default_verdict;
    d.reason =
        "no rule matched; the default verdict is " + std::string(toString(policy.default_verdict));
    d.source = policy.default_source;
  }
}

}  // namespace toolguard::detail
