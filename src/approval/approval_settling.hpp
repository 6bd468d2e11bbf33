#pragma once
// Settling an ask: remembered approvals first, then the handler.

#include <functional>
#include <string>

#include "toolguard/guard.hpp"

namespace toolguard::detail {

/// True when the policy asked (or escalated) and nothing stricter decided:
/// the only decisions an approval may change.
bool needsApproval(const Decision& decision);

/// A random 128-bit id in hex.
std::string newDecisionId();

/// Settles one decision that needs approval, in place.
struct ApprovalSettler {
  const Engine& engine;
  const GuardOptions& options;
  SessionApprovals& session;
  /// Called just before the handler is asked (a person may take minutes),
  /// never when a remembered approval or the mode settles the ask.
  std::function<void()> before_asking;

  void settle(const ToolCall& call, Decision& decision) const;
};

}  // namespace toolguard::detail
