// Sessions kept in a process's memory (memorySessionRepository): for a
// Guard that lives as long as its sessions (a C++ program, a binding).
#include <algorithm>
#include <list>
#include <mutex>
#include <unordered_map>

#include "toolguard/session_state.hpp"

namespace toolguard {
namespace {

using Clock = std::chrono::system_clock;

class MemorySessions final : public SessionRepository {
 public:
  MemorySessions(SessionStoreOptions options, size_t max_sessions)
      : options_(std::move(options)), max_sessions_(std::max<size_t>(max_sessions, 1)) {
    if (options_.max_events == 0) options_.max_events = 1;
  }

  SessionState load(const std::string& key) const override {
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(key);
    if (found == sessions_.end() || expired(found->second->state)) return {};
    return found->second->state;
  }

  void append(const std::string& key, const SessionEvent& event) override {
    std::lock_guard lock(mutex_);
    auto found = sessions_.find(key);
    if (found == sessions_.end()) {
      if (sessions_.size() == max_sessions_) {  // forget the least recently used
        sessions_.erase(order_.back().key);
        order_.pop_back();
      }
      order_.push_front(Entry{key, {}});
      found = sessions_.emplace(key, order_.begin()).first;
    } else {
      order_.splice(order_.begin(), order_, found->second);
    }
    SessionState& state = found->second->state;
    if (expired(state)) state = {};
    state.events.push_back(event);
    state.forgetOldest(options_.max_events);  // what it saw stays
  }

 private:
  struct Entry {
    std::string key;
    SessionState state;
  };

  bool expired(const SessionState& state) const {
    return !state.events.empty() && Clock::now() - state.events.back().at > options_.expire_after;
  }

  SessionStoreOptions options_;
  size_t max_sessions_;
  mutable std::mutex mutex_;
  std::list<Entry> order_;  ///< most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> sessions_;
};

}  // namespace

std::shared_ptr<SessionRepository> memorySessionRepository(SessionStoreOptions options,
                                                           size_t max_sessions) {
  return std::make_shared<MemorySessions>(std::move(options), max_sessions);
}

}  // namespace toolguard
