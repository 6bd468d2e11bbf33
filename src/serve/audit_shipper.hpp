#pragma once
// Internal: ships the audit as it is kept (`toolguard serve --audit-ship
// URL`): the lines the store keeps, chained as they are kept, POSTed in
// batches to a collector (a SIEM's HTTP input, a log shipper), signed as the
// ask webhook's notices are. The store keeps the audit either way: shipping
// is a copy, and a collector that is down delays it, never a decision.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace toolguard::serve {

/// The shipper: a thread of its own, a bounded backlog.
class AuditShipper {
 public:
  /// Lines, and bytes, waiting past which the oldest are dropped (and said so).
  static constexpr size_t kMaxBacklog = 100000;
  static constexpr size_t kMaxBacklogBytes = size_t{64} << 20;
  /// Lines in one POST at most (and about a MiB).
  static constexpr size_t kMaxBatchLines = 1000;

  /// Posts to `url` ("http://...", "https://..." or "unix:/..."). With a
  /// `secret`, each batch is signed (AskWebhook::signatureHeaders).
  AuditShipper(std::string url, std::string secret);
  /// Sends what waits for at most five seconds more, then stops.
  ~AuditShipper();
  AuditShipper(const AuditShipper&) = delete;
  AuditShipper& operator=(const AuditShipper&) = delete;

  /// Queues one kept line; never blocks (the store's writer calls it).
  void kept(const std::string& line);

 private:
  void run();
  // POSTs `body` (numbered `batch`); true when the collector took it (2xx).
  bool post(const std::string& body, std::uint64_t batch, long timeout_ms);

  std::string url_;
  std::string secret_;
  std::string shipper_id_;  // new at each start: batch numbers start again
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> backlog_;  // lines not yet in a batch
  size_t backlog_bytes_ = 0;
  std::uint64_t dropped_ = 0;  // lines dropped since the last batch said so
  bool dropping_ = false;      // said on stderr when it starts
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace toolguard::serve
