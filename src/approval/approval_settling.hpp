#pragma once
// Settling an ask: remembered approvals first, then the handler.

#include <functional>
#include <string>

#include "toolguard/guard.hpp"

namespace toolguard::detail {

/// A random 128-bit id in hex.
std::string newDecisionId();

/// Settles one decision whose verdict is ask, in place: a remembered
/// approval allows it; a headless call, or one nobody can be asked about, is
/// denied (or left at ask with report_ask); else the handler is asked.
struct ApprovalSettler {
  const GuardOptions& options;
  SessionApprovals& session;
  /// Called just before the handler is asked (a person may take minutes),
  /// never when a remembered approval or the mode settles the ask.
  std::function<void()> before_asking;

  /// `subject` is the call as it will run, viewed.
  void settle(const std::shared_ptr<const ViewedCall>& subject, Decision& decision) const;
};

}  // namespace toolguard::detail
