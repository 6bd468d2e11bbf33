#pragma once
// Internal: one rule example checked against its rule (checkRuleExamples
// checks them all; `toolguard test` reports each as a case).

#include <optional>
#include <string>

#include "toolguard/policy.hpp"

namespace toolguard::detail {

/// What `rule` alone says about an example's call (as the examples are
/// checked: cwd /workspace, every simple command of a shell program), or
/// nullopt when the rule does not apply to the call's tool or abstains.
std::optional<Finding> findingOnExample(const Policy& policy, const Rule& rule,
                                        const ToolCall& call);

/// Why `ex` fails (`rule X: example should match but does not: CALL`), or
/// nullopt when the rule matches it exactly as the example says.
std::optional<std::string> exampleFailure(const Policy& policy, const Rule& rule,
                                          const RuleExample& ex);

}  // namespace toolguard::detail
