#pragma once
// Cancelling work that is under way: a generation, a tool call, a validator.

#include <atomic>
#include <memory>

namespace toolguard {

/// A flag shared by every copy: whoever holds a copy can cancel, and every
/// copy sees it. A default-constructed token can be cancelled too (it owns
/// its own flag). Thread-safe.
class CancellationToken {
 public:
  CancellationToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}

  /// Asks everyone holding a copy to stop.
  void cancel() const { flag_->store(true, std::memory_order_release); }

  /// True once any copy was cancelled.
  bool cancelled() const { return flag_->load(std::memory_order_acquire); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace toolguard
