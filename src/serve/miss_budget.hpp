#pragma once
// Internal: how often the service may read its store for a key a request
// names that the service does not know (a bearer token its snapshot lacks, a
// session cookie it has not seen): a token made a moment ago, or a made-up
// one. Ten reads a second, refilled as time passes; past them the request is
// refused without the store, so a flood of made-up keys costs the store
// (and the database's connections) almost nothing. Not thread-safe: its
// owner's mutex guards it.

#include <algorithm>
#include <chrono>

namespace toolguard::serve {

/// Store reads left for unknown keys, refilled at kPerSecond.
class MissBudget {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr double kPerSecond = 10;

  /// Takes one read; false when none is left.
  bool take(Clock::time_point now) {
    refill(now);
    if (left_ < 1) return false;
    left_ -= 1;
    return true;
  }

  /// True when no read is left now (takes none).
  bool spent(Clock::time_point now) {
    refill(now);
    return left_ < 1;
  }

 private:
  void refill(Clock::time_point now) {
    if (now > refilled_) {
      left_ = std::min(kPerSecond,
                       left_ + kPerSecond * std::chrono::duration<double>(now - refilled_).count());
      refilled_ = now;
    }
  }
  double left_ = kPerSecond;
  Clock::time_point refilled_{};
};

}  // namespace toolguard::serve
