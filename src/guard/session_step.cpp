// A Guard's session memory: loading what a session saw, remembering a call.
#include "session_step.hpp"

#include <stdexcept>

namespace toolguard::detail {

std::string sessionKeyOf(const ToolCall& call) {
  if (!call.context.session_key.empty()) return call.context.session_key;
  if (call.context.session.empty()) return "";
  return SessionStore::keyOf(call.context.agent, call.context.session);
}

std::shared_ptr<const SessionState> loadSession(const SessionRepository& sessions,
                                                const std::string& key) noexcept {
  try {
    return std::make_shared<const SessionState>(sessions.load(key));
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

namespace {

// What the call did, for the reasons of later decisions; secrets left out.
std::string summaryOf(const ToolCall& call) {
  const nlohmann::json args = redactSecrets(call.args);
  const auto command = args.is_object() ? args.find("command") : args.end();
  return call.tool + " " +
         (command != args.end() && command->is_string() ? command->get<std::string>()
                                                        : args.dump());
}

}  // namespace

void rememberCall(SessionRepository& sessions, const std::string& key, const ToolCall& call,
                  const Decision& decision, const SessionState& before) {
  if (decision.labels.empty() && before.events.empty() && !before.unknown) return;
  SessionEvent event;
  event.at = std::chrono::system_clock::now();
  event.tool = call.tool;
  event.summary = summaryOf(call);
  event.labels = decision.labels;
  event.decision_id = decision.id;
  sessions.append(key, event);
}

void rememberResult(SessionRepository& sessions, const std::string& key, const ToolCall& call,
                    const std::vector<std::string>& labels) {
  if (labels.empty() || key.empty()) return;
  SessionEvent event;
  event.at = std::chrono::system_clock::now();
  event.tool = call.tool;
  event.summary = "the result of " + summaryOf(call);
  event.labels = labels;
  sessions.append(key, event);
}

}  // namespace toolguard::detail
