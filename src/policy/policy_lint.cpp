// Lint: rules that can never match, allow rules shadowed by a deny, unknown tools,
// shell rules only one agent's shell tool reaches, limits a hook cannot enforce.
#include <algorithm>

#include "core/rule_conditions.hpp"
#include "core/rule_index.hpp"
#include "toolguard/policy.hpp"

namespace toolguard {
namespace {

// True when `wide` selects every tool `narrow` selects, judged on the targets alone.
bool targetCovers(const RuleTarget& wide, const RuleTarget& narrow) {
  if (!wide.categories.empty() && wide.categories != narrow.categories) return false;
  if (!wide.kinds.empty() && wide.kinds != narrow.kinds) return false;
  if (wide.tools.empty()) return true;
  if (narrow.tools.empty()) return false;
  return std::all_of(narrow.tools.begin(), narrow.tools.end(), [&](const std::string& n) {
    return std::any_of(wide.tools.begin(), wide.tools.end(), [&](const std::string& w) {
      return isWildcard(n) ? (w == n || w == "*") : toolNameMatches(w, n);
    });
  });
}

// A target whose exact tool names are all known but none is selected by its
// category or kind can never apply.
bool targetSelectsNothing(const RuleTarget& target, const ToolCatalog& tools) {
  if (target.tools.empty() || (target.categories.empty() && target.kinds.empty())) return false;
  for (const std::string& name : target.tools) {
    if (isWildcard(name)) return false;
    const ToolInfo* info = tools.find(name);
    if (info == nullptr || detail::targetSelects(target, name, *info)) return false;
  }
  return true;
}

// The catalog's shell tools a rule about shell commands never sees: its tool
// list names Bash, say, so the same command through Gemini CLI's
// run_shell_command (or another agent's shell tool) escapes it.
std::vector<std::string> shellToolsMissed(const Rule& rule, const ToolCatalog& tools) {
  const RuleTarget& target = rule.target();
  if (target.tools.empty() || (!rule.judgesShellCommands() && !ruleMatchesCommandText(rule))) {
    return {};
  }
  // A rule that names no shell tool is not about the shell (`local:` on
  // WebFetch judges commands only because it could).
  const bool names_a_shell =
      std::any_of(target.tools.begin(), target.tools.end(), [&](const std::string& w) {
        const std::vector<const ToolInfo*> all = tools.all();
        return std::any_of(all.begin(), all.end(), [&](const ToolInfo* info) {
          return info->kind == ToolKind::Shell && toolNameMatches(w, info->name);
        });
      });
  if (!names_a_shell) return {};
  std::vector<std::string> missed;
  for (const ToolInfo* info : tools.all()) {
    if (info->kind != ToolKind::Shell) continue;
    const bool named =
        std::any_of(target.tools.begin(), target.tools.end(),
                    [&](const std::string& w) { return toolNameMatches(w, info->name); });
    if (!named) missed.push_back(info->name);
  }
  std::sort(missed.begin(), missed.end());
  return missed;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

std::vector<PolicyWarning> lintPolicy(const Policy& policy) {
  std::vector<PolicyWarning> out = policy.warnings;
  for (const auto& rule : policy.rules) {
    const RuleTarget& target = rule->target();
    if (auto above = ruleRiskAbove(*rule); above && *above == RiskLevel::Critical) {
      out.push_back({rule->source(),
                     "rule " + rule->id() + " can never match: no risk level is above critical"});
    }
    if (targetSelectsNothing(target, policy.tools)) {
      out.push_back({rule->source(), "rule " + rule->id() +
                                         " can never match: none of its tools has the category "
                                         "or kind it requires"});
    }
    for (const std::string& name : target.tools) {
      if (!isWildcard(name) && !policy.tools.contains(name) && !name.starts_with("mcp__")) {
        out.push_back({rule->source(), "rule " + rule->id() + ": unknown tool '" + name +
                                           "' (not in the catalog or any tools: section)"});
      }
    }
    if (std::vector<std::string> missed = shellToolsMissed(*rule, policy.tools); !missed.empty()) {
      out.push_back({rule->source(),
                     "rule " + rule->id() + " judges shell commands only through " +
                         joined(target.tools) + ": the same command through another agent's " +
                         "shell tool (" + joined(missed) +
                         ") never reaches it; use kind: shell instead of tool: to cover them all"});
    }
    auto verdict = rule->fixedVerdict();
    if ((verdict == Verdict::Allow || verdict == Verdict::Escalate) &&
        ruleMatchesCommandText(*rule)) {
      out.push_back({rule->source(),
                     "rule " + rule->id() +
                         " loosens on the raw command text: until shell commands are parsed, "
                         "a pattern such as 'git status*' also matches 'git status; rm -rf ~'"});
    }
    if (verdict != Verdict::Allow) continue;
    for (const auto& other : policy.rules) {
      if (other == rule || !ruleRefusesItsWholeTarget(*other)) continue;
      if (targetCovers(other->target(), target)) {
        out.push_back({rule->source(),
                       "allow rule " + rule->id() + " is shadowed: " +
                           std::string(toString(*other->fixedVerdict())) + " rule " + other->id() +
                           " (" + other->source().toString() + ") matches every call it matches"});
        break;
      }
    }
  }
  for (const RateLimit& limit : policy.rate_limits) {
    if (limit.max_concurrent == 0) continue;
    // Windows hold across processes (the rate-limit store); running calls cannot.
    out.push_back({limit.source,
                   "rate limit max_concurrent is counted within one process: it holds in "
                   "toolguard mcp and in a C++ Guard, but not across toolguard check hooks, "
                   "which do not see a tool finish (max_calls per window holds everywhere)"});
  }
  return out;
}

}  // namespace toolguard
