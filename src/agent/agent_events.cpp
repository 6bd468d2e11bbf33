// Names of agent events and stops, and events as JSON lines.
#include "toolguard/agent.hpp"

namespace toolguard {

std::string_view toString(AgentEventType type) {
  switch (type) {
    case AgentEventType::Content:
      return "content";
    case AgentEventType::ToolCallPreparing:
      return "tool-call-preparing";
    case AgentEventType::ToolCallRunning:
      return "tool-call-running";
    case AgentEventType::ToolCallCompleted:
      return "tool-call-completed";
    case AgentEventType::ToolCallCanceled:
      return "tool-call-canceled";
    case AgentEventType::ToolCallAborted:
      return "tool-call-aborted";
    case AgentEventType::End:
      return "end";
  }
  return "end";
}

std::string_view toString(AgentStop stop) {
  switch (stop) {
    case AgentStop::Completed:
      return "completed";
    case AgentStop::TurnLimit:
      return "turn-limit";
    case AgentStop::Aborted:
      return "aborted";
    case AgentStop::Denied:
      return "denied";
    case AgentStop::Cancelled:
      return "cancelled";
    case AgentStop::Error:
      return "error";
  }
  return "error";
}

nlohmann::json AgentEvent::toJson() const {
  nlohmann::json out = {{"event", toString(type)}, {"turn", turn}};
  if (!text.empty()) out["text"] = text;
  if (!tool_call_id.empty()) out["tool_call_id"] = tool_call_id;
  if (!tool.empty()) out["tool"] = tool;
  if (!args.is_null()) out["args"] = args;
  if (outcome) out["outcome"] = outcome->toJson();
  if (!reason.empty()) out["reason"] = reason;
  if (!extra.is_null()) out["extra"] = extra;
  if (stop) out["stop"] = toString(*stop);
  return out;
}

}  // namespace toolguard
