#pragma once
// What running a tool through the registry came to: always a value, never
// an exception.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "toolguard/decision.hpp"

namespace toolguard {

/// How a guarded tool call ended.
enum class OutcomeKind {
  Result,   ///< the tool ran; `result` holds what it returned (after result filters)
  Denied,   ///< the guard blocked it; `reason` says why, for the model
  Aborted,  ///< the generation must stop; `reason` and `extra` say why
  Error     ///< the tool, a filter or the guard failed; `reason` says how
};

/// The lowercase name of an outcome kind ("result", "denied", "aborted", "error").
std::string_view toString(OutcomeKind kind);

/// The outcome of one guarded tool call.
struct ToolOutcome {
  OutcomeKind kind = OutcomeKind::Error;
  nlohmann::json result;  ///< Result: the tool's output
  std::string reason;     ///< Denied/Aborted/Error: why, written for the model
  nlohmann::json extra;   ///< Aborted (or Denied by a validator): the validator's extra data
  /// The guard's decision, when the call got that far (not for an unknown tool).
  std::optional<Decision> decision;
  bool cached = false;  ///< Result served by a result cache, without running the tool

  static ToolOutcome success(nlohmann::json result);
  static ToolOutcome denied(std::string reason);
  static ToolOutcome aborted(std::string reason, nlohmann::json extra = nullptr);
  static ToolOutcome error(std::string reason);

  bool ok() const { return kind == OutcomeKind::Result; }

  /// The text the model receives as the tool message: the result (a string
  /// result as is, anything else as JSON), or a sentence saying the call was
  /// blocked, aborted or failed and why.
  std::string modelContent() const;

  /// The outcome as JSON: {"kind", "result"|"reason", "extra"?, "cached"?,
  /// "decision_id"?}.
  nlohmann::json toJson() const;
};

}  // namespace toolguard
