// What a session has seen (toolguard/session_state.hpp): the questions a
// decision asks of it. Where it is kept is the session layer's.
#include "toolguard/session_state.hpp"

#include <algorithm>

namespace toolguard {

bool SessionState::holdsLabel(const std::string& label) const {
  return unknown || latestWith(label) != nullptr;
}

std::set<std::string> SessionState::labels() const {
  std::set<std::string> all;
  for (const SessionEvent& event : events) all.insert(event.labels.begin(), event.labels.end());
  return all;
}

const SessionEvent* SessionState::latestWith(const std::string& label) const {
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (std::find(it->labels.begin(), it->labels.end(), label) != it->labels.end()) return &*it;
  }
  return nullptr;
}

size_t SessionState::eventsAfter(const SessionEvent& event) const {
  return static_cast<size_t>(&events.back() - &event);
}

}  // namespace toolguard
