#pragma once
// Internal: the store's audit, written after the decision. A check on the
// database decides, then its records are committed in the writer's next
// group while no thread waits; the answer goes out once they are kept.

#include <exception>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "store/grouped_writes.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::serve {

/// The audit sink the service's Guards write to: inside a Capture on the
/// calling thread a record is kept in it (the decision goes on as if it was
/// written); elsewhere it is written to the store's sink at once.
class DeferredAudit : public AuditSink {
 public:
  explicit DeferredAudit(std::shared_ptr<AuditSink> store_audit);

  /// Captured (prepared; throws AuditLogError when it is not an object) when
  /// a Capture is open on this thread, else written (throws what the store
  /// throws).
  void writeRecord(const nlohmann::json& record) override;

  /// Captured (prepared, its JSON never built) when a Capture is open on
  /// this thread, else handed to the store's sink.
  void writeDecision(const ToolCall& call, const Decision& decision,
                     std::chrono::system_clock::time_point when) override;

  /// Whether the store's audit commits other writes with a record (then a
  /// store::GroupedWrites capture beside the Capture keeps them).
  bool groupsWrites() const { return grouping_ != nullptr; }

  /// Writes every record, `writes` in the last one's transaction; `done` is
  /// called once, when all are kept (nullptr) or one failed (the first
  /// failure), on the store's writer thread or this one. Writes without a
  /// record, or that the store cannot group, fail (and are lost).
  void writeAllThen(std::vector<PreparedAuditRecord> records,
                    std::vector<store::GroupedWrite> writes,
                    std::function<void(std::exception_ptr failed)> done);

  /// Keeps the records written on this thread while it is open.
  class Capture {
   public:
    Capture();
    ~Capture();
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    /// What was written meanwhile, oldest first, prepared for the store.
    std::vector<PreparedAuditRecord> records;

   private:
    std::vector<PreparedAuditRecord>* outer_;
  };

 private:
  std::shared_ptr<AuditSink> store_audit_;
  store::GroupingAuditSink* grouping_;  ///< store_audit_ when it groups, else nullptr
};

}  // namespace toolguard::serve
