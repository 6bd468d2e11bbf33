// The LLM validator step of the Guard: settles escalate as allow, deny or ask.
#include "llm_step.hpp"

#include "overrule.hpp"

namespace toolguard::detail {
namespace {

// The person's and the log's account of how escalate ended.
std::string llmSettledBy(const LlmJudgement& j) {
  std::string by = "the LLM validator";
  if (!j.model.empty()) by += " (" + j.model + (j.cached ? ", cached answer)" : ")");
  return by;
}

void keepAsk(const LlmJudgement& j, const ToolCall& call, Decision& d) {
  const std::string why = j.answered ? llmSettledBy(j) + " answered ASK: " + j.reason : j.reason;
  d.resolution = "escalate becomes ask: " + why;
  if (call.context.mode == InteractionMode::Headless) {
    d.resolution += "; ask becomes deny: the call is headless, no one can approve it";
  }
  d.reason += " (" + (j.answered ? "LLM validator: " + j.reason : j.reason) + ")";
}

}  // namespace

void consultLlmValidator(const LlmValidator& validator, const Engine& engine,
                         const ToolCall& original, const CancellationToken& cancellation,
                         Decision& d) {
  ToolCall call = original;  // as it would run
  if (d.sanitized_args) call.args = *d.sanitized_args;
  const Policy& policy = engine.policy();
  const CallView view(call, engine.toolInfo(call.tool), policy.paths.pathOptions(),
                      &policy.paths.workspace_roots);
  auto judgement = std::make_shared<const LlmJudgement>(validator.judge(view, cancellation));
  d.llm = judgement;
  const LlmJudgement& j = *judgement;
  if (!j.answered || j.verdict == LlmVerdict::Ask) {
    keepAsk(j, call, d);
    return;
  }
  const SourceLocation where{"<llm-validator>", 0, 0};
  if (j.verdict == LlmVerdict::Allow) {
    overrule(d, Verdict::Allow, DecisionBasis::LlmValidator, where,
             "the LLM validator allowed it (the policy escalated: " + d.reason + ")", "");
  } else {
    overrule(d, Verdict::Deny, DecisionBasis::LlmValidator, where,
             "the LLM validator denied the call: " + j.reason,
             "Blocked by toolguard (LLM validator): " + j.reason +
                 ". Do not retry the same call; explain or choose another approach.");
  }
  d.resolution = "escalate settled by " + llmSettledBy(j) + ": " + std::string(toString(j.verdict));
}

}  // namespace toolguard::detail
