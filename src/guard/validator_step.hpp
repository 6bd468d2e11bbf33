#pragma once
// Internal: consulting the validation callback (GuardOptions::validator).

#include "toolguard/guard.hpp"

namespace toolguard::detail {

/// Asks the validator about a call the policy did not deny outright, and
/// makes the decision stricter if it says deny or abort. A validator that
/// throws, breaks its future, answers nothing in time, or is cancelled
/// denies the call.
void consultValidator(const GuardOptions& options, const ToolInfo& tool, const ToolCall& call,
                      const CancellationToken& cancellation, Decision& decision);

}  // namespace toolguard::detail
