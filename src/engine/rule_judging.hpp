#pragma once
// Internal: consulting the rules that can apply to a call.

#include "engine/compiled_policy.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"

namespace toolguard::detail {

/// Consults every candidate rule (shell command rules per simple command) and
/// fills in the policy's part of `d`: policy_verdict, basis, reason, rule_id,
/// source, decided_on and consulted. With no finding, the tool's own policy
/// and then the default verdict decide.
void judgeRules(const CompiledPolicy& compiled, const CallView& view, Decision& d);

}  // namespace toolguard::detail
