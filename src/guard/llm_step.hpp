#pragma once
// Internal: the Guard's LLM validator step for escalated calls.

#include "toolguard/guard.hpp"

namespace toolguard::detail {

/// Asks the LLM validator about an escalated call (`view`: the call as it
/// will run) and applies its answer: ALLOW allows, DENY denies (final: no
/// approval overrules it), ASK or a failure makes it an ask with the
/// validator's reason added. The judgement is kept in decision.llm.
void consultLlmValidator(const LlmValidator& validator, const CallView& view,
                         const CancellationToken& cancellation, Decision& decision);

}  // namespace toolguard::detail
