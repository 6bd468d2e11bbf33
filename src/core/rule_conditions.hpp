#pragma once
// Internal: whether a rule looks at more than its target (for lint).
#include <optional>

#include "toolguard/rule.hpp"

namespace toolguard {

/// False only for declarative rules that match every call their target selects.
bool ruleHasConditions(const Rule& rule);

}  // namespace toolguard

namespace toolguard {

/// True for declarative rules with a `command` matcher (raw command text).
bool ruleMatchesCommandText(const Rule& rule);

/// The `max_risk` of a declarative rule (it applies to tools above it), if any.
std::optional<RiskLevel> ruleRiskAbove(const Rule& rule);

}  // namespace toolguard
