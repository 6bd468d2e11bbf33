// ToolOutcome: constructors, the model's view and JSON.
#include "toolguard/tool_outcome.hpp"

#include "core/model_text.hpp"

namespace toolguard {

std::string_view toString(OutcomeKind kind) {
  switch (kind) {
    case OutcomeKind::Result:
      return "result";
    case OutcomeKind::Denied:
      return "denied";
    case OutcomeKind::Aborted:
      return "aborted";
    case OutcomeKind::Error:
      return "error";
  }
  return "error";
}

ToolOutcome ToolOutcome::success(nlohmann::json result) {
  ToolOutcome outcome;
  outcome.kind = OutcomeKind::Result;
  outcome.result = std::move(result);
  return outcome;
}

ToolOutcome ToolOutcome::denied(std::string reason) {
  ToolOutcome outcome;
  outcome.kind = OutcomeKind::Denied;
  outcome.reason = std::move(reason);
  return outcome;
}

ToolOutcome ToolOutcome::aborted(std::string reason, nlohmann::json extra) {
  ToolOutcome outcome;
  outcome.kind = OutcomeKind::Aborted;
  outcome.reason = std::move(reason);
  outcome.extra = std::move(extra);
  return outcome;
}

ToolOutcome ToolOutcome::error(std::string reason) {
  ToolOutcome outcome;
  outcome.kind = OutcomeKind::Error;
  outcome.reason = std::move(reason);
  return outcome;
}

std::string ToolOutcome::modelContent() const {
  switch (kind) {
    case OutcomeKind::Result:
      return result.is_string()
                 ? result.get<std::string>()
                 : result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    case OutcomeKind::Denied:
      return detail::asBlockedText(reason);
    case OutcomeKind::Aborted: {
      std::string text = detail::asBlockedText(reason);
      text.append(" The generation was stopped.");
      return text;
    }
    case OutcomeKind::Error: {
      std::string text = "The tool failed: ";
      text.append(reason.empty() ? "unknown error" : reason);
      return text;
    }
  }
  return "The tool failed: unknown outcome";
}

nlohmann::json ToolOutcome::toJson() const {
  nlohmann::json out = {{"kind", toString(kind)}};
  if (kind == OutcomeKind::Result) {
    out["result"] = result;
  } else {
    out["reason"] = reason;
  }
  if (!extra.is_null()) out["extra"] = extra;
  if (cached) out["cached"] = true;
  if (decision && !decision->id.empty()) out["decision_id"] = decision->id;
  return out;
}

}  // namespace toolguard
