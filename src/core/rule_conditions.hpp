#pragma once
// Internal: whether a rule looks at more than its target (for lint).
#include <optional>

#include "toolguard/rule.hpp"
#include "toolguard/verdict.hpp"

namespace toolguard {

/// False only for declarative rules that match every call their target selects.
bool ruleHasConditions(const Rule& rule);

/// True for a rule that refuses every call its target selects: its fixed
/// verdict is final (deny or abort, isFinal) and it has no conditions.
inline bool ruleRefusesItsWholeTarget(const Rule& rule) {
  const std::optional<Verdict> verdict = rule.fixedVerdict();
  return verdict && isFinal(*verdict) && !ruleHasConditions(rule);
}

/// True for a path rule that restricts (its fixed verdict is ask, deny or
/// abort): the engine judges it path by path, against every path a call
/// reads or writes (Rule::judgesPathAccesses).
inline bool restrictsPathByPath(const Rule& rule) {
  const std::optional<Verdict> verdict = rule.fixedVerdict();
  return rule.judgesPathAccesses() && verdict && (*verdict == Verdict::Ask || isFinal(*verdict));
}

}  // namespace toolguard

namespace toolguard {

/// True for declarative rules with a `command` matcher (raw command text).
bool ruleMatchesCommandText(const Rule& rule);

/// The `max_risk` of a declarative rule (it applies to tools above it), if any.
std::optional<RiskLevel> ruleRiskAbove(const Rule& rule);

}  // namespace toolguard
