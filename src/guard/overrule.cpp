// Putting a rate limit's or a validator's judgement in place of the policy's.
#include "overrule.hpp"

#include "core/model_text.hpp"

namespace toolguard::detail {

void overrule(Decision& d, Verdict verdict, DecisionBasis basis, SourceLocation source,
              std::string reason, std::string model_reason) {
  d.verdict = verdict;
  d.basis = basis;
  d.rule_id.clear();
  d.decided_on.clear();
  d.source = std::move(source);
  d.reason = std::move(reason);
  d.model_reason = std::move(model_reason);
}

void denyAfterFailure(Decision& d, const std::string& why) {
  if (d.verdict == Verdict::Abort) return;
  d.verdict = Verdict::Deny;
  d.reason = why;
  d.model_reason = blockedText(why);
  if (!d.resolution.empty()) d.resolution += "; ";
  d.resolution += "denied: " + why;
}

}  // namespace toolguard::detail
