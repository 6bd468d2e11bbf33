#pragma once
// `explain --all`: the rules that had nothing to say about a call, and why.

#include <memory>
#include <string>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/rule.hpp"

namespace toolguard::cli {

/// A rule that did not match a call, and the reason in a sentence.
struct UnmatchedRule {
  std::shared_ptr<const Rule> rule;
  std::string why;  ///< "it is for tools Read, Write; the call is to Bash"
};

/// Every rule of `rules` that is not in `decision.consulted` (the index skipped
/// it, or, for shell command and path rules, it abstained everywhere), in
/// policy order, each with why it did not match `view`'s call.
std::vector<UnmatchedRule> unmatchedRules(const std::vector<std::shared_ptr<const Rule>>& rules,
                                          const Decision& decision, const CallView& view);

/// Why `rule` did not match the call of `view` (it was not consulted).
std::string whyNotMatched(const Rule& rule, const CallView& view);

}  // namespace toolguard::cli
