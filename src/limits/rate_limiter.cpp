// Rate limits: sliding windows of call times (in memory or in a store) and
// counts of running calls.
#include "toolguard/rate_limiter.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/counted.hpp"
#include "toolguard/rule.hpp"

namespace toolguard {
namespace detail {

// One limit's counts for one session or agent.
struct RateCounter {
  size_t limit = 0;
  std::deque<std::chrono::steady_clock::time_point> calls;  // oldest first
  size_t running = 0;
};

struct RateLimiterState {
  std::vector<RateLimit> limits;
  std::shared_ptr<RateLimitStore> store;  // windows counted there when set
  std::mutex mutex;
  // Tickets share their counters (a sweep never frees one a ticket holds).
  std::map<std::pair<size_t, std::string>, std::shared_ptr<RateCounter>> counters;
  size_t sweep_at = kFirstSweep;  // sweep when this many counters are held

  static constexpr size_t kFirstSweep = 64;

  std::shared_ptr<RateCounter> counterFor(size_t limit, const std::string& key,
                                          std::chrono::steady_clock::time_point now) {
    auto [it, added] = counters.try_emplace({limit, key});
    if (!added) return it->second;
    it->second = std::make_shared<RateCounter>(RateCounter{limit, {}, 0});
    std::shared_ptr<RateCounter> counter = it->second;  // held: the sweep keeps it
    if (counters.size() >= sweep_at) sweep(now);
    return counter;
  }

  // Frees the counters with no running call and no call left in a window
  // (sessions and agents that stopped calling), and none a ticket or the
  // admission in progress holds (use_count > 1). It runs when the number of
  // counters has doubled since the last sweep, so its cost is amortised over
  // the counters added since: O(1) per call, never a scan on every call.
  void sweep(std::chrono::steady_clock::time_point now) {
    for (auto it = counters.begin(); it != counters.end();) {
      RateCounter& counter = *it->second;
      const RateLimit& limit = limits[counter.limit];
      while (!counter.calls.empty() && counter.calls.front() + limit.window <= now) {
        counter.calls.pop_front();
      }
      if (it->second.use_count() == 1 && counter.running == 0 && counter.calls.empty()) {
        it = counters.erase(it);
      } else {
        ++it;
      }
    }
    sweep_at = std::max(kFirstSweep, 2 * counters.size());
  }
};

}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;

bool applies(const RateLimit& limit, const ToolCall& call, const ToolInfo& tool) {
  if (!limit.category.empty() && limit.category != tool.metadata.category) return false;
  return toolNameMatches(limit.tool, call.tool);
}

std::string countedPer(const RateLimit& limit, const ToolCall& call) {
  return limit.per == RateLimitPer::Agent ? call.context.agent : call.context.session;
}

std::string describeLimit(const RateLimit& limit) {
  std::string what = limit.category.empty() ? limit.tool : "category " + limit.category;
  return what + " (" + limit.source.toString() + ")";
}

std::string seconds(Clock::duration wait) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(wait).count();
  return std::to_string(std::max<int64_t>(1, (ms + 999) / 1000)) + " s";
}

std::string windowFullReason(const RateLimit& limit, Clock::duration retry) {
  return "rate limit: at most " + detail::counted(limit.max_calls, "call", "calls") + " of " +
         describeLimit(limit) + " per " + seconds(limit.window) + "; retry in " + seconds(retry);
}

// The store's name for one limit's window for one session or agent: the
// limit as written (where, what, how much) and whom it counts.
RateWindow storedWindow(const RateLimit& limit, const std::string& counted_for) {
  nlohmann::json key = {limit.source.toString(),
                        limit.tool,
                        limit.category,
                        limit.max_calls,
                        limit.window.count(),
                        limit.per == RateLimitPer::Agent ? "agent" : "session",
                        counted_for};
  return RateWindow{key.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                    limit.max_calls, limit.window};
}

}  // namespace

RateLimiter::RateLimiter(std::vector<RateLimit> limits) : RateLimiter(std::move(limits), nullptr) {}

RateLimiter::RateLimiter(std::vector<RateLimit> limits, std::shared_ptr<RateLimitStore> windows)
    : state_(std::make_shared<detail::RateLimiterState>()) {
  state_->limits = std::move(limits);
  state_->store = std::move(windows);
}

bool RateLimiter::empty() const {
  return state_->limits.empty();
}

size_t RateLimiter::countersHeld() const {
  std::lock_guard lock(state_->mutex);
  return state_->counters.size();
}

RateLimitAdmission RateLimiter::admit(const ToolCall& call, const ToolInfo& tool,
                                      Clock::time_point now) {
  RateLimitAdmission admission;
  if (state_->limits.empty()) {
    admission.admitted = true;
    return admission;
  }
  std::lock_guard lock(state_->mutex);
  std::vector<std::shared_ptr<detail::RateCounter>> counters;
  std::vector<RateWindow> stored;           // windows the store counts
  std::vector<const RateLimit*> stored_of;  // their limits
  for (size_t i = 0; i < state_->limits.size(); ++i) {
    const RateLimit& limit = state_->limits[i];
    if (!applies(limit, call, tool)) continue;
    std::shared_ptr<detail::RateCounter> c = state_->counterFor(i, countedPer(limit, call), now);
    detail::RateCounter& counter = *c;
    if (limit.max_calls > 0 && state_->store) {
      stored.push_back(storedWindow(limit, countedPer(limit, call)));
      stored_of.push_back(&limit);
    } else if (limit.max_calls > 0) {
      while (!counter.calls.empty() && counter.calls.front() + limit.window <= now) {
        counter.calls.pop_front();
      }
      if (counter.calls.size() >= limit.max_calls) {
        admission.limit = &limit;
        admission.reason = windowFullReason(limit, counter.calls.front() + limit.window - now);
        return admission;
      }
    }
    if (limit.max_concurrent > 0 && counter.running >= limit.max_concurrent) {
      admission.limit = &limit;
      admission.reason =
          "rate limit: at most " + detail::counted(limit.max_concurrent, "call", "calls") + " of " +
          describeLimit(limit) + " may run at once; retry when one of them has finished";
      return admission;
    }
    counters.push_back(std::move(c));
  }
  const auto stored_at = std::chrono::system_clock::now();
  if (!stored.empty()) {  // last: nothing is counted in the store for a refused call
    try {
      RateWindowAdmission answer = state_->store->admit(stored, stored_at);
      if (!answer.admitted) {
        admission.limit = stored_of.at(answer.full);
        admission.reason = windowFullReason(*admission.limit, answer.retry_after);
        return admission;
      }
    } catch (const std::exception& e) {
      admission.limit = stored_of.front();
      admission.reason =
          "rate limit of " + describeLimit(*admission.limit) + " could not be counted: " + e.what();
      return admission;
    }
  }
  admission.admitted = true;
  admission.ticket.state_ = state_;
  admission.ticket.stored_ = std::move(stored);
  admission.ticket.stored_at_ = stored_at;
  for (std::shared_ptr<detail::RateCounter>& c : counters) {
    detail::RateCounter& counter = *c;
    const RateLimit& limit = state_->limits[counter.limit];
    RateLimitTicket::Hold hold{std::move(c), std::nullopt, false};
    if (limit.max_calls > 0 && !state_->store) {
      counter.calls.push_back(now);
      hold.counted_at = now;
    }
    if (limit.max_concurrent > 0) {
      ++counter.running;
      hold.running = true;
    }
    admission.ticket.holds_.push_back(hold);
  }
  return admission;
}

RateLimitTicket::RateLimitTicket(RateLimitTicket&& other) noexcept
    : state_(std::move(other.state_)),
      holds_(std::move(other.holds_)),
      stored_(std::move(other.stored_)),
      stored_at_(other.stored_at_) {
  other.holds_.clear();
  other.stored_.clear();
}

RateLimitTicket& RateLimitTicket::operator=(RateLimitTicket&& other) noexcept {
  if (this != &other) {
    release();
    state_ = std::move(other.state_);
    holds_ = std::move(other.holds_);
    stored_ = std::move(other.stored_);
    stored_at_ = other.stored_at_;
    other.holds_.clear();
    other.stored_.clear();
  }
  return *this;
}

RateLimitTicket::~RateLimitTicket() {
  release();
}

void RateLimitTicket::release() {
  if (!state_) return;
  std::lock_guard lock(state_->mutex);
  for (Hold& hold : holds_) {
    if (hold.running) {
      --hold.counter->running;
      hold.running = false;
    }
  }
}

void RateLimitTicket::cancel() {
  if (!state_) return;
  release();
  if (!stored_.empty() && state_->store) {
    try {
      state_->store->retract(stored_, stored_at_);
    } catch (const std::exception&) {  // the call stays counted: stricter, never looser
    }
    stored_.clear();
  }
  std::lock_guard lock(state_->mutex);
  for (Hold& hold : holds_) {
    if (!hold.counted_at) continue;
    auto& calls = hold.counter->calls;
    auto it = std::find(calls.begin(), calls.end(), *hold.counted_at);
    if (it != calls.end()) calls.erase(it);
    hold.counted_at.reset();
  }
}

}  // namespace toolguard
