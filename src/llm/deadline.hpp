#pragma once
// Internal: a cancellation token that also fires at a deadline.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "toolguard/cancellation.hpp"

namespace toolguard::detail {

/// Cancels token() when `parent` is cancelled or `limit` has passed,
/// whichever comes first (checked every 20 ms). Stops its watcher on
/// destruction.
class Deadline {
 public:
  Deadline(const CancellationToken& parent, std::chrono::milliseconds limit);
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

  const CancellationToken& token() const { return token_; }
  /// True once the time is up (as opposed to the parent being cancelled).
  bool expired() const { return std::chrono::steady_clock::now() >= until_; }
  /// Time left, rounded up to whole milliseconds (zero when expired): a wait
  /// of remaining() never ends before the deadline, so a socket timeout set
  /// to it fires only once expired() is true and is reported as a timeout.
  std::chrono::milliseconds remaining() const;

 private:
  CancellationToken parent_;
  CancellationToken token_;
  std::chrono::steady_clock::time_point until_;
  std::mutex mutex_;
  std::condition_variable wakeup_;
  bool done_ = false;
  std::thread watcher_;
};

}  // namespace toolguard::detail
