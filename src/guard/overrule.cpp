// Putting a rate limit's or a validator's judgement in place of the policy's.
#include "overrule.hpp"

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

}  // namespace toolguard::detail
