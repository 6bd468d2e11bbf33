#pragma once
// Internal: another party's judgement in place of the policy's.

#include <string>

#include "toolguard/decision.hpp"

namespace toolguard::detail {

/// Replaces the decision's verdict by that of a rate limit or a validator:
/// what decided it, where, and the reasons for the person and the model.
/// The rule and the shell command that decided before no longer apply.
/// policy_verdict is left as it was.
void overrule(Decision& decision, Verdict verdict, DecisionBasis basis, SourceLocation source,
              std::string reason, std::string model_reason);

/// A step after the policy failed (the session's memory, the audit): the
/// call is denied for `why` (an abort stays an abort), and the resolution
/// says so.
void denyAfterFailure(Decision& decision, const std::string& why);

}  // namespace toolguard::detail
