// `toolguard explain`: what the call's session remembers.
#include "cli/explain_session.hpp"

#include <sstream>

#include "guard/session_step.hpp"
#include "toolguard/session_state.hpp"

namespace toolguard::cli {

nlohmann::json attachSession(ToolCall& call, const Policy& policy, const std::string& home) {
  const std::string key = sessionKeyOf(call);
  if (key.empty()) return nullptr;
  const SessionStore store(SessionStoreOptions{home + "/sessions", policy.sessions.max_events,
                                               policy.sessions.expire_after});
  std::shared_ptr<const SessionState> state = detail::loadSession(store, key);
  if (!state) return nullptr;
  call.context.session_state = state;
  nlohmann::json holds = nlohmann::json::array();
  for (const std::string& label : state->labels()) {
    const SessionEvent* latest = state->latestWith(label);
    holds.push_back({{"label", label},
                     {"latest", latest->summary},
                     {"calls_back", state->eventsAfter(*latest) + 1}});
  }
  return {{"key", key},
          {"remembered_calls", state->events.size()},
          {"unknown", state->unknown},
          {"holds", std::move(holds)}};
}

std::string sessionReportText(const nlohmann::json& session, const nlohmann::json& decision) {
  if (!session.is_object()) return "";
  std::ostringstream out;
  out << "\nSession " << session.at("key").get<std::string>() << ": "
      << session.at("remembered_calls").get<size_t>() << " calls remembered\n";
  if (session.at("unknown").get<bool>()) {
    out << "  its memory could not be read: it is taken to hold every label\n";
  }
  for (const auto& held : session.at("holds")) {
    out << "  holds " << held.at("label").get<std::string>() << " since "
        << held.at("latest").get<std::string>() << " (" << held.at("calls_back").get<size_t>()
        << " calls back)\n";
  }
  const nlohmann::json labels = decision.value("labels", nlohmann::json::array());
  out << "  this call's labels:";
  if (labels.empty()) out << " none";
  for (const auto& label : labels) out << " " << label.get<std::string>();
  out << "\n";
  return out.str();
}

}  // namespace toolguard::cli
