#pragma once
// Internal: the Guard's LLM validator step for escalated calls.

#include "toolguard/guard.hpp"

namespace toolguard::detail {

/// Asks the LLM validator about an escalated call and applies its answer:
/// ALLOW allows, DENY denies (final: no approval overrules it), ASK or a
/// failure keeps the ask (or the headless deny) with the validator's reason
/// added. The judgement is kept in decision.llm.
void consultLlmValidator(const LlmValidator& validator, const Engine& engine, const ToolCall& call,
                         const CancellationToken& cancellation, Decision& decision);

}  // namespace toolguard::detail
