// A Guard's session memory: loading what a session saw, remembering a call.
#include "session_step.hpp"

#include <stdexcept>

#include "session/session_json.hpp"

namespace toolguard::detail {

std::shared_ptr<const SessionState> loadSession(const SessionRepository& sessions,
                                                const std::string& key) noexcept {
  try {
    return sessions.snapshot(key);
  } catch (...) {
    try {
      auto unknown = std::make_shared<SessionState>();
      unknown->unknown = true;
      return unknown;
    } catch (...) {
      return nullptr;  // no memory at all: the caller fails closed
    }
  }
}

void rememberCall(SessionRepository& sessions, const std::string& key, const ToolCall& call,
                  const Decision& decision, const SessionState& before) {
  if (decision.labels.empty() && before.events.empty() && !before.unknown) return;
  SessionEvent event;
  event.at = std::chrono::system_clock::now();
  event.tool = call.tool;
  event.labels = decision.labels;
  // A call that brought no label is only counted (windows, "N calls back"),
  // never named in a reason: what it did and its decision are not kept (a
  // smaller file that every later call of the session reads).
  if (!event.labels.empty()) {
    event.summary = sessionSummaryOf(call);
    event.decision_id = decision.id;
  }
  sessions.append(key, event);
}

}  // namespace toolguard::detail
