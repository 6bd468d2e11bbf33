// The LLM validator step of the Guard: settles escalate as allow, deny or ask.
#include "llm_step.hpp"

#include "core/model_text.hpp"
#include "overrule.hpp"

namespace toolguard::detail {
namespace {

// The person's and the log's account of how escalate ended.
std::string llmSettledBy(const LlmReview& j) {
  std::string by = "the LLM validator";
  if (!j.model.empty()) by += " (" + j.model + (j.cached ? ", cached answer)" : ")");
  return by;
}

void keepAsk(const LlmReview& j, Decision& d) {
  const std::string why = j.answered ? llmSettledBy(j) + " answered ASK: " + j.reason : j.reason;
  d.verdict = Verdict::Ask;
  d.resolution = "escalate becomes ask: " + why;
  d.reason += " (" + (j.answered ? "LLM validator: " + j.reason : j.reason) + ")";
}

}  // namespace

void consultLlmValidator(const LlmValidator& validator, const CallView& view,
                         const CancellationToken& cancellation, Decision& d) {
  auto judgement = std::make_shared<const LlmReview>(validator.review(view, cancellation));
  d.llm = judgement;
  const LlmReview& j = *judgement;
  if (!j.answered || j.verdict == LlmVerdict::Ask) {
    keepAsk(j, d);
    return;
  }
  const SourceLocation where{"<llm-validator>", 0, 0};
  if (j.verdict == LlmVerdict::Allow) {
    overrule(d, Verdict::Allow, DecisionBasis::LlmValidator, where,
             "the LLM validator allowed it (the policy escalated: " + d.reason + ")", "");
  } else {
    overrule(d, Verdict::Deny, DecisionBasis::LlmValidator, where,
             "the LLM validator denied the call: " + j.reason,
             blockedNoRetryText(j.reason, "LLM validator"));
  }
  d.resolution = "escalate settled by " + llmSettledBy(j) + ": " + std::string(toString(j.verdict));
}

}  // namespace toolguard::detail
