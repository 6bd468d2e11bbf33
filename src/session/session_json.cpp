// A remembered session event as JSON (session/session_json.hpp).
#include "session/session_json.hpp"

#include "toolguard/audit_log.hpp"

namespace toolguard::detail {
namespace {

using Clock = std::chrono::system_clock;

constexpr size_t kMaxSummaryBytes = 200;
constexpr size_t kMaxToolBytes = 200;
constexpr size_t kMaxLabels = 16;
constexpr size_t kMaxLabelBytes = 64;

std::string clipped(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t end = limit;
  // Not in the middle of a UTF-8 sequence.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "…";
}

long long millisOf(Clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

}  // namespace

nlohmann::json sessionEventJson(const SessionEvent& event) {
  std::vector<std::string> labels;
  for (const std::string& label : event.labels) {
    if (labels.size() == kMaxLabels) break;
    labels.push_back(clipped(label, kMaxLabelBytes));
  }
  nlohmann::json line = {{"at", millisOf(event.at)},
                         {"tool", clipped(event.tool, kMaxToolBytes)},
                         {"summary", clipped(event.summary, kMaxSummaryBytes)},
                         {"labels", labels}};
  if (!event.decision_id.empty()) line["decision"] = event.decision_id.substr(0, 64);
  return line;
}

std::optional<SessionEvent> sessionEventFrom(const nlohmann::json& line) {
  if (!line.is_object()) return std::nullopt;
  const auto at = line.find("at");
  const auto tool = line.find("tool");
  const auto summary = line.find("summary");
  const auto labels = line.find("labels");
  if (at == line.end() || !at->is_number_integer() || tool == line.end() || !tool->is_string() ||
      summary == line.end() || !summary->is_string() || labels == line.end() ||
      !labels->is_array()) {
    return std::nullopt;
  }
  SessionEvent event;
  event.at = Clock::time_point(std::chrono::milliseconds(at->get<long long>()));
  event.tool = tool->get<std::string>();
  event.summary = summary->get<std::string>();
  for (const nlohmann::json& label : *labels) {
    if (!label.is_string()) return std::nullopt;
    event.labels.push_back(label.get<std::string>());
  }
  if (const auto decision = line.find("decision"); decision != line.end()) {
    if (!decision->is_string()) return std::nullopt;
    event.decision_id = decision->get<std::string>();
  }
  return event;
}

std::string sessionSummaryOf(const ToolCall& call) {
  const nlohmann::json args = redactSecrets(call.args);
  const auto command = args.is_object() ? args.find("command") : args.end();
  return call.tool + " " +
         (command != args.end() && command->is_string() ? command->get<std::string>()
                                                        : args.dump());
}

}  // namespace toolguard::detail

namespace toolguard {

std::string sessionKeyOf(const ToolCall& call) {
  if (!call.context.session_key.empty()) return call.context.session_key;
  if (call.context.session.empty()) return "";
  return SessionStore::keyOf(call.context.agent, call.context.session);
}

void rememberToolResult(SessionRepository& sessions, const ToolCall& call,
                        const std::vector<std::string>& labels) {
  const std::string key = sessionKeyOf(call);
  if (labels.empty() || key.empty()) return;
  SessionEvent event;
  event.at = std::chrono::system_clock::now();
  event.tool = call.tool;
  event.summary = "the result of " + detail::sessionSummaryOf(call);
  event.labels = labels;
  sessions.append(key, event);
}

}  // namespace toolguard
