// The in-memory session cache of "always allow for this session".
#include "toolguard/session_approvals.hpp"

#include <algorithm>

namespace toolguard {

bool SessionApprovals::add(ApprovalEntry entry) {
  entry.scope = ApprovalScope::Session;
  std::lock_guard lock(mutex_);
  std::vector<ApprovalEntry>& list = by_session_[entry.scope_id];
  auto same = [&](const ApprovalEntry& e) { return e.sameGrant(entry); };
  if (std::any_of(list.begin(), list.end(), same)) return false;
  list.push_back(std::move(entry));
  return true;
}

std::vector<ApprovalEntry> SessionApprovals::entries(std::string_view session) const {
  std::lock_guard lock(mutex_);
  auto it = by_session_.find(session);
  return it == by_session_.end() ? std::vector<ApprovalEntry>{} : it->second;
}

void SessionApprovals::clear(std::string_view session) {
  std::lock_guard lock(mutex_);
  if (auto it = by_session_.find(session); it != by_session_.end()) by_session_.erase(it);
}

}  // namespace toolguard
