#pragma once
// Internal: rules made of ordered cases (RuleSpec::first_match).

#include <functional>
#include <memory>

#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// Compiles one case of a first_match rule (compileRule, given by the
/// engine: the cases are ordinary rules).
using CaseCompiler = std::function<std::shared_ptr<const Rule>(RuleSpec)>;

/// Compiles a rule whose `first_match` cases decide in order. Each case is
/// compiled as a rule of its own by `compile_case` (id `<rule>#<n>` unless it
/// has one), so a bad pattern is reported at the case. Throws PolicyError.
std::shared_ptr<const Rule> compileFirstMatchRule(RuleSpec spec, const CaseCompiler& compile_case);

}  // namespace toolguard::detail
