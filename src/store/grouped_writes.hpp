#pragma once
// Internal: writes committed in the audit's transaction. A call in a
// session on PostgreSQL adds an event to its session and an audit record;
// committed apart, they cost the service a round trip and the database a
// commit of their own each. Inside a GroupedWrites capture the session's
// append is kept instead of run, and goes to the audit's writer with the
// call's record: both commit in one transaction of the writer's next group
// (or neither does, and the call is denied).

#include <exception>
#include <functional>
#include <vector>

#include "pg_connection.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::store {

/// A statement to commit in the transaction of the audit record it goes
/// with. `committed` gets its result after the commit; `lost` is called
/// instead when it was not committed or may not have been. Both run on the
/// audit's writer thread and must not throw or wait on the database.
struct GroupedWrite {
  PgStatement statement;
  std::function<void(const PgResult& result)> committed;
  std::function<void()> lost;
};

/// Tells the write it was lost (what it throws is ignored).
void lose(GroupedWrite& write) noexcept;

/// Tells each write it was lost.
void loseAll(std::vector<GroupedWrite>& writes) noexcept;

/// While alive on a thread, the store's writes made there that can wait for
/// the audit (a session's append) are kept in it instead of run.
class GroupedWrites {
 public:
  GroupedWrites();
  ~GroupedWrites();
  GroupedWrites(const GroupedWrites&) = delete;
  GroupedWrites& operator=(const GroupedWrites&) = delete;

  /// The capture open on this thread (the innermost), nullptr when none.
  static GroupedWrites* open();

  /// The writes kept, oldest first; those still here at its end are lost.
  std::vector<GroupedWrite> writes;

 private:
  GroupedWrites* outer_;
};

/// An audit sink that commits other writes in a record's transaction.
class GroupingAuditSink : public AuditSink {
 public:
  /// Queues the prepared record with `writes`, committed in the same
  /// transaction; `done` as for writePreparedThen (after the writes were
  /// told how they fared).
  virtual void writePreparedWithThen(PreparedAuditRecord record, std::vector<GroupedWrite> writes,
                                     std::function<void(std::exception_ptr failed)> done) = 0;
};

}  // namespace toolguard::store
