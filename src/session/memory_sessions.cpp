// Sessions kept in a process's memory (memorySessionRepository): for a
// Guard that lives as long as its sessions (a C++ program, a binding, an
// MCP proxy or gateway).
//
// A Guard judges each call with a snapshot of its session and then
// remembers the call while it still holds that snapshot. Copying the
// session for each call (its events' labels, summaries and decision ids
// are each allocated) cost an MCP proxy more than judging the call. So a
// session is held by a shared pointer and handed out as it is; it is never
// changed while anyone else holds it. An event remembered meanwhile waits
// beside it and is added in place once the snapshot is let go, which in a
// session's usual order (judge, remember, judge the next) is at the next
// snapshot: no copy at all. Only when snapshots are always held (calls of
// one session judged at once, without end) is the session copied, once
// for several waiting events.
#include <algorithm>
#include <list>
#include <mutex>
#include <unordered_map>

#include "toolguard/session_state.hpp"

namespace toolguard {
namespace {

using Clock = std::chrono::system_clock;

// Events that wait while a snapshot is held before the session is copied
// to take them.
constexpr size_t kMostWaiting = 16;

class MemorySessions final : public SessionRepository {
 public:
  MemorySessions(SessionStoreOptions options, size_t max_sessions)
      : options_(std::move(options)), max_sessions_(std::max<size_t>(max_sessions, 1)) {
    if (options_.max_events == 0) options_.max_events = 1;
  }

  SessionState load(const std::string& key) const override { return *snapshot(key); }

  std::shared_ptr<const SessionState> snapshot(const std::string& key) const override {
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(key);
    if (found == sessions_.end()) return std::make_shared<const SessionState>();
    Entry& entry = *found->second;
    addWaiting(entry, true);
    if (expired(*entry.state, Clock::now())) return std::make_shared<const SessionState>();
    return entry.state;
  }

  void append(const std::string& key, const SessionEvent& event) override {
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(key);
    if (found == sessions_.end()) {
      if (sessions_.size() == max_sessions_) {  // forget the least recently used
        sessions_.erase(order_.back().key);
        order_.pop_back();
      }
      order_.push_front(Entry{key, std::make_shared<SessionState>(), {}});
      found = sessions_.emplace(key, order_.begin()).first;
    } else {
      order_.splice(order_.begin(), order_, found->second);
    }
    Entry& entry = *found->second;
    entry.waiting.push_back(Waiting{event, Clock::now()});
    addWaiting(entry, false);
  }

 private:
  // An event remembered while the session was held, and when.
  struct Waiting {
    SessionEvent event;
    Clock::time_point appended;
  };
  struct Entry {
    std::string key;
    std::shared_ptr<SessionState> state;  ///< never null
    std::vector<Waiting> waiting;
  };

  // Adds the waiting events to the session, as append() did when each came:
  // in place when nobody else holds the session; in a copy when `now` or
  // when many wait.
  void addWaiting(Entry& entry, bool now) const {
    if (entry.waiting.empty()) return;
    if (entry.state.use_count() > 1) {
      if (!now && entry.waiting.size() < kMostWaiting) return;
      entry.state = std::make_shared<SessionState>(*entry.state);
    }
    SessionState& state = *entry.state;
    for (Waiting& waiting : entry.waiting) {
      if (expired(state, waiting.appended)) state = {};
      state.events.push_back(std::move(waiting.event));
      state.forgetOldest(options_.max_events);  // what it saw stays
    }
    entry.waiting.clear();
  }

  // Whether the session's latest event was too long before `at`.
  bool expired(const SessionState& state, Clock::time_point at) const {
    return !state.events.empty() && at - state.events.back().at > options_.expire_after;
  }

  SessionStoreOptions options_;
  size_t max_sessions_;
  mutable std::mutex mutex_;
  mutable std::list<Entry> order_;  ///< most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> sessions_;
};

}  // namespace

std::shared_ptr<SessionRepository> memorySessionRepository(SessionStoreOptions options,
                                                           size_t max_sessions) {
  return std::make_shared<MemorySessions>(std::move(options), max_sessions);
}

}  // namespace toolguard
