#pragma once
// Internal: ships the audit as it is kept (`toolguard serve --audit-ship
// URL`): the lines the store keeps, chained as they are kept, POSTed in
// batches to a collector (a SIEM's HTTP input, a log shipper), signed as the
// ask webhook's notices are. The store keeps the audit either way: shipping
// is a copy, and a collector that is down delays it, never a decision.

#include <cstddef>
#include <memory>
#include <string>

namespace toolguard::serve {

/// The shipper: a thread of its own, a bounded backlog.
class AuditShipper {
 public:
  /// Lines waiting, by default, past which the oldest are dropped (and
  /// said so); and bytes waiting, past which the same.
  static constexpr size_t kDefaultMaxBacklog = 100000;
  static constexpr size_t kMaxBacklogBytes = size_t{64} << 20;
  /// Lines in one POST at most (and about a MiB).
  static constexpr size_t kMaxBatchLines = 1000;

  /// Posts to `url` ("http://...", "https://..." or "unix:/..."). With a
  /// `secret`, each batch is signed (AskWebhook::signatureHeaders). At most
  /// `max_backlog` lines wait while the collector does not take them.
  AuditShipper(std::string url, std::string secret, size_t max_backlog = kDefaultMaxBacklog);
  /// Sends what waits for at most five seconds more (a POST under way
  /// included), then returns: a shipper still sending then is left to end
  /// with the process.
  ~AuditShipper();
  AuditShipper(const AuditShipper&) = delete;
  AuditShipper& operator=(const AuditShipper&) = delete;

  /// Queues one kept line; never blocks (the store's writer calls it).
  void kept(const std::string& line);

  /// What the shipper's thread and its owner share (audit_shipper.cpp): the
  /// thread holds it too, so it may outlive the owner at stop.
  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace toolguard::serve
