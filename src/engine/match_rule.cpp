// Declarative rules compiled from a RuleSpec.
#include <algorithm>
#include <memory>
#include <optional>

#include "commands/local_commands.hpp"
#include "commands/shell_facts.hpp"
#include "core/content_matcher.hpp"
#include "core/first_match_rule.hpp"
#include "core/rule_conditions.hpp"
#include "core/value_matcher.hpp"
#include "paths/path_matcher.hpp"
#include "rules/shell_matcher.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/rule_spec.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard {

ValueMatcher ValueMatcher::Equals(nlohmann::json value) {
  ValueMatcher m;
  m.equals = std::move(value);
  return m;
}
ValueMatcher ValueMatcher::Glob(std::string pattern) {
  ValueMatcher m;
  m.glob = {std::move(pattern)};
  return m;
}
ValueMatcher ValueMatcher::Regex(std::string pattern) {
  ValueMatcher m;
  m.regex = {std::move(pattern)};
  return m;
}

namespace {

using detail::CompiledPathMatcher;
using detail::CompiledValueMatcher;

// Rules whose finding can be looser than ask must hold for every path.
bool loosens(Verdict verdict) {
  return verdict == Verdict::Allow || verdict == Verdict::Escalate;
}

enum class ContextField { Agent, Session, Model, Role, Mode, Cwd };

std::optional<ContextField> parseContextField(std::string_view name) {
  if (name == "agent") return ContextField::Agent;
  if (name == "session") return ContextField::Session;
  if (name == "model") return ContextField::Model;
  if (name == "role") return ContextField::Role;
  if (name == "mode") return ContextField::Mode;
  if (name == "cwd") return ContextField::Cwd;
  return std::nullopt;
}

std::string_view contextValue(const CallContext& context, ContextField field) {
  switch (field) {
    case ContextField::Agent:
      return context.agent;
    case ContextField::Session:
      return context.session;
    case ContextField::Model:
      return context.model;
    case ContextField::Role:
      return context.role;
    case ContextField::Mode:
      return toString(context.mode);
    case ContextField::Cwd:
      return context.cwd;
  }
  return {};
}

const nlohmann::json* lookupArgument(const nlohmann::json& args, const std::string& name) {
  if (!args.is_object()) return nullptr;
  if (name.starts_with('/')) {
    try {
      const nlohmann::json::json_pointer pointer(name);
      return args.contains(pointer) ? &args.at(pointer) : nullptr;
    } catch (const nlohmann::json::exception&) {
      return nullptr;
    }
  }
  auto it = args.find(name);
  return it == args.end() ? nullptr : &*it;
}

// "N calls back" for reasons.
std::string callsBack(size_t calls) {
  return calls == 1 ? "the call before" : std::to_string(calls) + " calls back";
}

std::string joinList(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

class MatchRule final : public Rule {
 public:
  explicit MatchRule(RuleSpec spec)
      : Rule(spec.header),
        risk_above_(spec.risk_above),
        only_args_(std::move(spec.only_args)),
        only_confined_(spec.only_confined),
        local_(spec.local),
        verdict_(spec.verdict),
        reason_(spec.reason.empty() ? "matched rule " + spec.header.id : spec.reason),
        examples_(std::move(spec.examples)),
        after_(std::move(spec.after)) {
    for (auto& [name, matcher] : spec.args) {
      if (name.starts_with('/')) {
        try {
          (void)nlohmann::json::json_pointer(name);
        } catch (const nlohmann::json::exception& e) {
          throw PolicyError(matcher.where, "invalid JSON pointer '" + name + "'");
        }
      }
      args_.emplace_back(name, CompiledValueMatcher(matcher));
    }
    if (spec.command) command_.emplace(*spec.command);
    if (spec.content) content_.emplace(*spec.content);
    if (spec.shell) shell_.emplace(std::move(*spec.shell), loosens(spec.verdict));
    if (spec.path) {
      path_.emplace(*spec.path, loosens(spec.verdict));
      path_globs_ = spec.path->glob;
    }
    for (auto& [name, matcher] : spec.context) {
      auto field = parseContextField(name);
      if (!field) {
        throw PolicyError(matcher.where, "unknown context field '" + name +
                                             "' (expected agent, session, model, role, mode, cwd)");
      }
      context_.emplace_back(*field, CompiledValueMatcher(matcher));
    }
  }

  std::optional<Verdict> fixedVerdict() const override { return verdict_; }
  const std::vector<RuleExample>& examples() const override { return examples_; }
  std::optional<RiskLevel> riskAbove() const { return risk_above_; }
  bool matchesCommandText() const { return command_.has_value(); }
  bool looksBack() const { return !after_.empty(); }
  bool hasConditions() const {
    return risk_above_ || !args_.empty() || only_args_ || command_ || content_ || path_ || shell_ ||
           local_ || !context_.empty() || only_confined_ || !after_.empty();
  }

  // A shell program's commands are judged one by one (evaluateCommand);
  // without a program the whole call is judged, and a shell tool's call
  // whose program is not known is not local.
  std::optional<Finding> evaluate(const CallView& view) const override {
    if (shell_ || !callMatches(view)) return std::nullopt;
    if (local_ && detail::toolStaysLocal(view.tool()) != *local_) return std::nullopt;
    return finding(view);
  }

  bool judgesShellCommands() const override { return shell_.has_value() || local_.has_value(); }

  bool judgesPathAccesses() const override {
    const RuleTarget& t = target();
    if (!path_ || !args_.empty() || only_args_ || command_ || content_ || shell_ || local_ ||
        risk_above_ || !t.tools.empty() || !t.categories.empty() || t.kinds.empty()) {
      return false;
    }
    return std::all_of(t.kinds.begin(), t.kinds.end(), [](ToolKind k) {
      return k == ToolKind::FileRead || k == ToolKind::FileWrite || k == ToolKind::FileSearch;
    });
  }

  std::optional<Finding> evaluateAccess(const PathAccess& probe,
                                        const CallView& view) const override {
    const auto& kinds = target().kinds;
    auto has = [&](ToolKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    const bool fits = probe.kind == PathAccessKind::Write
                          ? has(ToolKind::FileWrite)
                          : has(ToolKind::FileRead) || has(ToolKind::FileSearch);
    if (!fits || !path_ || !contextMatches(view) || !path_->matchesProbe(probe, view)) {
      return std::nullopt;
    }
    return finding(view);
  }

  std::vector<std::string> pathGlobs() const override { return path_globs_; }

  std::optional<Finding> evaluateCommand(const SimpleCommand& command,
                                         const CallView& view) const override {
    if ((!shell_ && !local_) || !callMatches(view)) return std::nullopt;
    if (shell_ && !shell_->matches(command, view)) return std::nullopt;
    if (local_) {
      const ShellProgram* program = view.shellProgram();
      const bool stays = program != nullptr && detail::commandStaysLocal(detail::CommandScene{
                                                   command, *program, view, view.home()});
      if (stays != *local_) return std::nullopt;
    }
    return finding(view);
  }

  bool callMatches(const CallView& view) const {
    if (risk_above_ && !(view.tool().metadata.risk > *risk_above_)) return false;
    // A rule that loosens holds for a list only when it holds for every
    // element, as a path rule that loosens must hold for every path.
    const bool every = loosens(verdict_);
    for (const auto& [name, matcher] : args_) {
      const nlohmann::json* value = lookupArgument(view.call().args, name);
      if (value == nullptr || !(every ? matcher.matchesEvery(*value) : matcher.matches(*value))) {
        return false;
      }
    }
    if (only_args_ && !onlyListedArguments(view.call().args)) return false;
    if (command_) {
      const auto& command = view.command();
      if (!command || !command_->matchesText(*command)) return false;
    }
    if (content_ && !content_->matches(view)) return false;
    if (path_ && !path_->matches(view)) return false;
    return contextMatches(view);
  }

  // Closed-world arguments: every top-level argument is one the rule lists
  // (arguments that are not an object have none to list: they never match).
  bool onlyListedArguments(const nlohmann::json& args) const {
    if (!args.is_object()) return false;
    for (const auto& [name, value] : args.items()) {
      if (std::find(only_args_->begin(), only_args_->end(), name) == only_args_->end()) {
        return false;
      }
    }
    return true;
  }

  bool contextMatches(const CallView& view) const {
    if (only_confined_ && !view.call().context.confined) return false;
    for (const auto& [field, matcher] : context_) {
      if (!matcher.matchesText(contextValue(view.call().context, field))) return false;
    }
    const SessionState* session = view.call().context.session_state.get();
    for (const SessionCondition& condition : after_) {
      if (session == nullptr) return false;  // no session known: nothing came before
      // An unknown memory holds everything: a stricter rule holds, a
      // looser one (allow after X) does not.
      if (!earlierEvent(*session, condition) && (!session->unknown || loosens(verdict_))) {
        return false;
      }
    }
    return true;
  }

  // The latest earlier event `condition` rests on, or nullptr when none is
  // inside its window.
  static const SessionEvent* earlierEvent(const SessionState& session,
                                          const SessionCondition& condition) {
    const SessionEvent* event = session.latestWith(condition.label);
    if (event == nullptr) return nullptr;
    if (condition.within_calls != 0 && session.eventsAfter(*event) >= condition.within_calls) {
      return nullptr;
    }
    if (condition.within_time.count() != 0 &&
        std::chrono::system_clock::now() - event->at > condition.within_time) {
      return nullptr;
    }
    return event;
  }

  // The rule's finding; with `after:`, its reason names the earlier calls
  // it rests on.
  Finding finding(const CallView& view) const {
    if (after_.empty()) return Finding{verdict_, reason_};
    const SessionState& session = *view.call().context.session_state;
    std::string basis;
    for (const SessionCondition& condition : after_) {
      const SessionEvent* event = earlierEvent(session, condition);
      if (!basis.empty()) basis += "; ";
      basis +=
          event == nullptr
              ? "the session's memory could not be read, so it is taken to hold " + condition.label
              : event->summary + " (" + callsBack(session.eventsAfter(*event) + 1) + ")";
    }
    return Finding{verdict_, reason_ + ", after " + basis};
  }

  std::string describe() const override {
    std::string out;
    auto add = [&out](const std::string& part) {
      if (!out.empty()) out += "; ";
      out += part;
    };
    const RuleTarget& t = target();
    if (!t.tools.empty()) add("tool " + joinList(t.tools));
    if (!t.categories.empty()) add("category " + joinList(t.categories));
    if (!t.kinds.empty()) {
      std::vector<std::string> names;
      for (ToolKind k : t.kinds) names.emplace_back(toString(k));
      add("kind " + joinList(names));
    }
    if (risk_above_) add("risk above " + std::string(toString(*risk_above_)));
    for (const auto& [name, matcher] : args_) add("arg " + name + " " + matcher.describe());
    if (only_args_) {
      add(only_args_->empty() ? "no arguments" : "no arguments but " + joinList(*only_args_));
    }
    if (command_) add("command " + command_->describe());
    if (content_) add(content_->describe());
    if (path_) add(path_->describe());
    if (shell_) add(shell_->describe());
    if (!context_.empty()) add("context conditions");
    if (only_confined_) add("run in the sandbox");
    if (local_)
      add(*local_ ? "shown to stay on this machine" : "not shown to stay on this machine");
    for (const SessionCondition& condition : after_) {
      std::string window;
      if (condition.within_calls != 0) {
        window += " within " + std::to_string(condition.within_calls) + " calls";
      }
      if (condition.within_time.count() != 0) {
        window += " within " + std::to_string(condition.within_time.count()) + "s";
      }
      add("after a call labelled " + condition.label + window);
    }
    if (out.empty()) out = "every call";
    return out + " -> " + std::string(toString(verdict_));
  }

 private:
  std::optional<RiskLevel> risk_above_;
  std::vector<std::pair<std::string, CompiledValueMatcher>> args_;
  std::optional<std::vector<std::string>> only_args_;
  bool only_confined_ = false;
  std::optional<bool> local_;
  std::optional<CompiledValueMatcher> command_;
  std::optional<detail::CompiledContentMatcher> content_;
  std::optional<CompiledPathMatcher> path_;
  std::vector<std::string> path_globs_;
  std::optional<detail::CompiledShellMatcher> shell_;
  std::vector<std::pair<ContextField, CompiledValueMatcher>> context_;
  Verdict verdict_;
  std::string reason_;
  std::vector<RuleExample> examples_;
  std::vector<SessionCondition> after_;
};

}  // namespace

std::shared_ptr<const Rule> compileRule(RuleSpec spec) {
  if (spec.header.id.empty()) throw PolicyError(spec.header.source, "rule needs an id");
  if (!spec.first_match.empty()) return detail::compileFirstMatchRule(std::move(spec), compileRule);
  return std::make_shared<const MatchRule>(std::move(spec));
}

bool ruleHasConditions(const Rule& rule) {
  if (const auto* match = dynamic_cast<const MatchRule*>(&rule)) return match->hasConditions();
  return true;  // custom rules may look at anything
}

bool ruleMatchesCommandText(const Rule& rule) {
  const auto* match = dynamic_cast<const MatchRule*>(&rule);
  return match != nullptr && match->matchesCommandText();
}

bool ruleLooksBack(const Rule& rule) {
  if (rule.id() == "session-rule-of-two") return true;
  const auto* match = dynamic_cast<const MatchRule*>(&rule);
  return match != nullptr && match->looksBack();
}

bool restsOnSession(const Decision& decision) {
  return std::any_of(
      decision.consulted.begin(), decision.consulted.end(), [](const RuleTrace& trace) {
        const Rule* by = trace.finding && trace.finding->decided_by ? trace.finding->decided_by
                                                                    : trace.rule.get();
        return trace.finding && trace.finding->verdict != Verdict::Allow && by != nullptr &&
               ruleLooksBack(*by);
      });
}

std::optional<RiskLevel> ruleRiskAbove(const Rule& rule) {
  if (const auto* match = dynamic_cast<const MatchRule*>(&rule)) return match->riskAbove();
  return std::nullopt;
}

}  // namespace toolguard
