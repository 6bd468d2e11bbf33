#pragma once
// Enforces a policy's rate limits: calls per time window and calls running
// at once, counted per session or per agent. Calls running at once are
// counted in the process; windows too, unless a RateLimitStore is given,
// which makes them hold across processes (one `toolguard check` per call).

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/policy.hpp"
#include "toolguard/rate_limit_store.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard {

namespace detail {
struct RateLimiterState;
struct RateCounter;
}  // namespace detail

/// A call's place in the limits it counts against. While the ticket lives
/// the call counts as running; cancel() also takes it out of the windows
/// (for a call that did not run after all). Move-only.
class RateLimitTicket {
 public:
  RateLimitTicket() = default;
  RateLimitTicket(RateLimitTicket&& other) noexcept;
  RateLimitTicket& operator=(RateLimitTicket&& other) noexcept;
  RateLimitTicket(const RateLimitTicket&) = delete;
  RateLimitTicket& operator=(const RateLimitTicket&) = delete;
  ~RateLimitTicket();

  /// Ends "running" now (the call finished) but keeps the call in the windows.
  void release();
  /// Ends "running" and removes the call from the windows.
  void cancel();

 private:
  friend class RateLimiter;
  struct Hold {
    std::shared_ptr<detail::RateCounter> counter;  ///< kept alive while the ticket lives
    std::optional<std::chrono::steady_clock::time_point> counted_at;
    bool running = false;
  };
  std::shared_ptr<detail::RateLimiterState> state_;
  std::vector<Hold> holds_;
  std::vector<RateWindow> stored_;                   ///< windows counted in the store
  std::chrono::system_clock::time_point stored_at_;  ///< when they were counted
};

/// The answer of RateLimiter::admit.
struct RateLimitAdmission {
  bool admitted = false;
  RateLimitTicket ticket;            ///< admitted: the place taken
  std::string reason;                ///< refused: why, and when to retry
  const RateLimit* limit = nullptr;  ///< refused: the limit that refused
};

/// Counts calls against a list of limits. Thread-safe.
class RateLimiter {
 public:
  explicit RateLimiter(std::vector<RateLimit> limits);

  /// Counts the windows (max_calls per window) in `windows` instead of in
  /// memory; nullptr counts them in memory. The store is consulted only for
  /// calls a window applies to.
  RateLimiter(std::vector<RateLimit> limits, std::shared_ptr<RateLimitStore> windows);

  /// Checks every limit that applies to the call; when all have room, takes
  /// a place in each (one call in each window, one running) and admits. A
  /// store that fails refuses the call, naming the problem (fail closed).
  RateLimitAdmission admit(
      const ToolCall& call, const ToolInfo& tool,
      std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

  /// True when no limit is configured.
  bool empty() const;

  /// How many counters (one per limit and session or agent) are kept in
  /// memory. A counter with no call running and no call left in its window
  /// is freed by a sweep that runs when the number of counters has doubled
  /// since the last one (amortised O(1) per call, never a scan per call), so
  /// sessions and agents that stopped calling do not keep memory.
  size_t countersHeld() const;

 private:
  std::shared_ptr<detail::RateLimiterState> state_;
};

}  // namespace toolguard
