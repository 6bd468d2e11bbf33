#pragma once
// Internal: rules made of ordered cases (RuleSpec::first_match).

#include <memory>

#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// Compiles a rule whose `first_match` cases decide in order. Each case is
/// compiled as a rule of its own (id `<rule>#<n>` unless it has one), so a
/// bad pattern is reported at the case. Throws PolicyError.
std::shared_ptr<const Rule> compileFirstMatchRule(RuleSpec spec);

}  // namespace toolguard::detail
