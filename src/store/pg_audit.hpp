#pragma once
// Internal: the audit on PostgreSQL: records committed in groups, each
// chained to the row before it (toolguard/audit_chain.hpp); pages read
// newest first in bounded batches; the chain walked by row id.

#include <condition_variable>
#include <deque>
#include <future>
#include <thread>

#include "grouped_writes.hpp"
#include "pg_connection.hpp"
#include "toolguard/audit_chain.hpp"

namespace toolguard::store {

/// Audit records committed in groups by one writer thread: each write waits
/// for its group's commit. Under a transaction-scoped advisory lock the
/// group reads the last row, chains each record to the one before (an
/// anchor first when the table has no chained row) and inserts them, so
/// that writers on several instances keep one chain. A record's grouped
/// writes (a session's append) commit in its group's transaction.
class PgAudit : public GroupingAuditSink {
 public:
  explicit PgAudit(std::string url);
  ~PgAudit() override;
  PgAudit(const PgAudit&) = delete;
  PgAudit& operator=(const PgAudit&) = delete;

  /// Throws StoreError when the record cannot be committed.
  void writeRecord(const nlohmann::json& record) override;

  /// Queues the record and returns; `done` runs on the writer thread after
  /// its group's commit (or at once when the record is refused).
  void writeRecordThen(const nlohmann::json& record,
                       std::function<void(std::exception_ptr failed)> done) override;

  /// Queues the prepared record as it is (its text is not read again).
  void writePreparedThen(PreparedAuditRecord record,
                         std::function<void(std::exception_ptr failed)> done) override;

  /// Queues the prepared record with writes committed in its transaction.
  void writePreparedWithThen(PreparedAuditRecord record, std::vector<GroupedWrite> writes,
                             std::function<void(std::exception_ptr failed)> done) override;

  /// Calls `kept` with each row's text once its group is committed (records
  /// and anchors, chained, in the chain's order), on the writer's thread:
  /// to ship the audit elsewhere as it is kept. It must not block. Set it
  /// before the first write.
  void onKept(std::function<void(const std::string& line)> kept) {
    std::lock_guard<std::mutex> lock(mutex_);  // the writer reads it after taking this lock
    kept_ = std::move(kept);
  }

  /// A record's text and the columns that find it (time, tool, verdict, rule).
  struct Row {
    std::string text;
    std::string columns[4];
  };

 private:
  struct Pending {
    Row row;
    std::vector<GroupedWrite> writes;
    std::function<void(std::exception_ptr failed)> done;
  };
  void run();
  // Commits the records and their writes (told how they fared) or throws.
  void insert(const std::vector<Pending*>& group);
  // The group chained to `prev` (the hash of the row before), an anchor
  // first when `anchor`: each row's columns and chained text. `prev`
  // becomes the last one's hash.
  std::vector<Row> chained(const std::vector<const Row*>& rows, std::string& prev, bool anchor);
  // One round trip when the table's last row is still the one this writer
  // committed last: false (nothing written) when another wrote since.
  bool insertAfterOwnLast(const std::vector<const Row*>& rows);
  // Two round trips in a transaction of its own: the lock, the rows after
  // this writer's last when it is still the table's (else after the row
  // read there), then `writes`, each told its result after the COMMIT.
  void insertInTransaction(const std::vector<const Row*>& rows,
                           const std::vector<GroupedWrite*>& writes);
  // Whether a row of exactly `text` is among the table's last 10,000 (a
  // group whose COMMIT's answer was lost). Throws StoreError.
  bool keptRecently(const std::string& text);
  // Tells onKept's function about a committed group.
  void tellKept(const std::vector<Row>& group) const;

  PgConnection connection_;
  std::function<void(const std::string&)> kept_;
  // The text of the last row this writer committed and its hash ("" until
  // the first commit, and after a failure: the table is read again).
  std::string own_last_text_;
  std::string own_last_hash_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  std::thread writer_;
};

/// The rows a query examines at most: a filter that matches rarely ends
/// there, with what it found.
inline constexpr size_t kMaxAuditRowsScanned = 100000;

/// Records that match, oldest first: the newest `query.last` (every one
/// when 0), read newest first in batches of bounded statements on `reads`.
std::vector<nlohmann::json> queryPgAudit(PgPool& reads, const AuditQuery& query);

/// Walks the chain of toolguard_audit by row id, in batches. Throws StoreError.
AuditChainReport verifyPgAudit(PgPool& reads, const std::string& expected_head);

}  // namespace toolguard::store
