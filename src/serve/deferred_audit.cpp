// The service's audit, written after the decision (deferred_audit.hpp).
#include "serve/deferred_audit.hpp"

#include <mutex>

namespace toolguard::serve {
namespace {

// The capture open on this thread, if any.
thread_local std::vector<PreparedAuditRecord>* t_captured = nullptr;

}  // namespace

DeferredAudit::DeferredAudit(std::shared_ptr<AuditSink> store_audit)
    : store_audit_(std::move(store_audit)),
      grouping_(dynamic_cast<store::GroupingAuditSink*>(store_audit_.get())) {}

void DeferredAudit::writeRecord(const nlohmann::json& record) {
  if (t_captured) {
    t_captured->push_back(prepareAuditRecord(record));
    return;
  }
  store_audit_->writeRecord(record);
}

void DeferredAudit::writeDecision(const ToolCall& call, const Decision& decision,
                                  std::chrono::system_clock::time_point when) {
  if (t_captured) {
    t_captured->push_back(prepareDecisionRecord(call, decision, when));
    return;
  }
  store_audit_->writeDecision(call, decision, when);
}

void DeferredAudit::writeAllThen(std::vector<PreparedAuditRecord> records,
                                 std::vector<store::GroupedWrite> writes,
                                 std::function<void(std::exception_ptr failed)> done) {
  if (!writes.empty() && (records.empty() || grouping_ == nullptr)) {
    store::loseAll(writes);
    done(std::make_exception_ptr(
        AuditLogError("the session's memory could not be written with the audit")));
    return;
  }
  if (records.empty()) {
    done(nullptr);
    return;
  }
  // The last record to be kept (or the first to fail) answers.
  struct Count {
    std::mutex mutex;
    size_t left;
    std::exception_ptr failed;
    std::function<void(std::exception_ptr)> done;
  };
  auto count = std::make_shared<Count>();
  count->left = records.size();
  count->done = std::move(done);
  auto one = [count](std::exception_ptr failed) {
    std::unique_lock<std::mutex> lock(count->mutex);
    if (failed && !count->failed) count->failed = failed;
    if (--count->left != 0) return;
    lock.unlock();
    count->done(count->failed);
  };
  for (size_t i = 0; i < records.size(); ++i) {
    try {
      if (i + 1 == records.size() && !writes.empty()) {
        grouping_->writePreparedWithThen(std::move(records[i]), std::move(writes), one);
      } else {
        store_audit_->writePreparedThen(std::move(records[i]), one);
      }
    } catch (...) {
      one(std::current_exception());  // it did not take the record
    }
  }
}

DeferredAudit::Capture::Capture() : outer_(t_captured) {
  t_captured = &records;
}

DeferredAudit::Capture::~Capture() {
  t_captured = outer_;
}

}  // namespace toolguard::serve
