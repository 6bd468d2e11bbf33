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

void SessionState::forgetOldest(size_t keep) {
  if (events.size() <= keep) return;
  const auto first_kept = events.end() - static_cast<ptrdiff_t>(keep);
  // Whether a kept event carries `label`, newest first (the label of a call
  // forgotten now is usually carried by a recent one).
  auto kept_carries = [&](const std::string& label) {
    return std::any_of(std::make_reverse_iterator(events.end()),
                       std::make_reverse_iterator(first_kept), [&](const SessionEvent& event) {
                         return std::find(event.labels.begin(), event.labels.end(), label) !=
                                event.labels.end();
                       });
  };
  const bool any_needed = std::any_of(events.begin(), first_kept, [&](const SessionEvent& event) {
    return std::any_of(event.labels.begin(), event.labels.end(),
                       [&](const std::string& label) { return !kept_carries(label); });
  });
  if (!any_needed) {  // the usual case: the oldest only go
    events.erase(events.begin(), first_kept);
    return;
  }
  std::vector<SessionEvent> kept;
  for (size_t i : eventsKept(keep)) kept.push_back(std::move(events[i]));
  events = std::move(kept);
}

std::vector<size_t> SessionState::eventsKept(size_t keep) const {
  const size_t n = events.size();
  const size_t first_kept = n > keep ? n - keep : 0;
  std::set<std::string_view> held;  // what the kept events carry, and the carried ones
  for (size_t i = first_kept; i < n; ++i)
    held.insert(events[i].labels.begin(), events[i].labels.end());
  std::vector<size_t> carried;  // newest first
  for (size_t i = first_kept; i-- > 0;) {
    const std::vector<std::string>& labels = events[i].labels;
    const bool needed = std::any_of(labels.begin(), labels.end(),
                                    [&](const std::string& label) { return !held.count(label); });
    if (!needed) continue;
    held.insert(labels.begin(), labels.end());
    carried.push_back(i);
  }
  std::vector<size_t> kept(carried.rbegin(), carried.rend());
  for (size_t i = first_kept; i < n; ++i) kept.push_back(i);
  return kept;
}

}  // namespace toolguard
