#pragma once
// "Always allow for this session": approvals kept in memory, per session id.

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/approval.hpp"

namespace toolguard {

/// The session cache. Entries are grouped by session id (calls without a
/// session id share the id ""). Thread-safe.
class SessionApprovals {
 public:
  /// Remembers an entry under its scope_id (its scope must be Session).
  /// Returns false when the same grant is already there.
  bool add(ApprovalEntry entry);

  /// The entries of one session.
  std::vector<ApprovalEntry> entries(std::string_view session) const;

  /// Forgets one session's entries.
  void clear(std::string_view session);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<ApprovalEntry>, std::less<>> by_session_;
};

}  // namespace toolguard
