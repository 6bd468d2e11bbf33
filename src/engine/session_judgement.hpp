#pragma once
// Internal: what a call adds to its session (its labels), and the rule of
// two, for a call whose session is known.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/rule_index.hpp"
#include "engine/strictest_finding.hpp"
#include "paths/path_probes.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/decision.hpp"
#include "toolguard/policy.hpp"

namespace toolguard::detail {

/// A policy's `labels:` rules, indexed like its rules.
class CompiledLabels {
 public:
  explicit CompiledLabels(const std::vector<LabelRule>& labels);

  /// Every label whose rule matches the call, each once, in policy order.
  std::vector<std::string> of(const CallView& view) const;

 private:
  bool matches(uint32_t index, const CallView& view) const;
  bool matchesSomePath(const Rule& rule, const std::vector<PathAccess>& accesses,
                       const CallView& view) const;
  /// Examples of the places the path rules' globs name, for pathProbes:
  /// worked out the first time a probe needs them (most calls never do).
  const std::vector<PathExample>& examples() const;

  std::vector<std::string> labels_;
  std::vector<std::shared_ptr<const Rule>> rules_;
  RuleIndex index_;
  std::vector<bool> by_path_;  ///< judged path by path (Rule::judgesPathAccesses)
  mutable std::once_flag examples_once_;
  mutable std::vector<PathExample> examples_;
};

/// For a call whose session is known (CallContext::session_state): sets
/// d.labels, and considers the rule of two (`sessions.rule_of_two`): an
/// outward call, when earlier calls brought untrusted input and earlier
/// calls or this one sensitive data, gets its verdict, with a reason naming
/// the calls that brought them.
void judgeSession(const Policy& policy, const CompiledLabels& labels, const CallView& view,
                  StrictestFinding& best, Decision& d);

}  // namespace toolguard::detail
