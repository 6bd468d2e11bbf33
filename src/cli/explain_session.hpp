#pragma once
// `toolguard explain` of a call that names its session: what the session
// remembers (toolguard's home/sessions), which the call is then judged with,
// as `check` would judge it.

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/policy.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::cli {

/// The report's `session` field: null when the call names no session; else
/// its key, how many calls it remembers, whether its memory is unknown, and
/// each label it holds with the latest call that brought it. Puts what the
/// session saw into `call`'s context, so the call is judged with it.
nlohmann::json attachSession(ToolCall& call, const Policy& policy, const std::string& home);

/// The text explain prints for it and the call's own labels ("" for null).
std::string sessionReportText(const nlohmann::json& session, const nlohmann::json& decision);

}  // namespace toolguard::cli
