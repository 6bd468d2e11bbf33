// A cancellation token with a deadline.
#include "deadline.hpp"

#include <algorithm>

namespace toolguard::detail {

Deadline::Deadline(const CancellationToken& parent, std::chrono::milliseconds limit)
    : parent_(parent), until_(std::chrono::steady_clock::now() + limit) {
  watcher_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      if (parent_.cancelled() || std::chrono::steady_clock::now() >= until_) {
        token_.cancel();
        return;
      }
      wakeup_.wait_for(lock, std::chrono::milliseconds(20));
    }
  });
}

Deadline::~Deadline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wakeup_.notify_all();
  watcher_.join();
}

std::chrono::milliseconds Deadline::remaining() const {
  // Not truncated: 299.9 ms left must not become a 299 ms socket timeout
  // that ends before the deadline (then read as "could not be reached").
  auto left =
      std::chrono::ceil<std::chrono::milliseconds>(until_ - std::chrono::steady_clock::now());
  return std::max(left, std::chrono::milliseconds(0));
}

}  // namespace toolguard::detail
