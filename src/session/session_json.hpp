#pragma once
// Internal: a remembered session event as JSON, the same in every store
// (the file store's lines, the service's database rows), with its fields
// clipped to their bounds.

#include <nlohmann/json.hpp>
#include <optional>

#include "toolguard/session_state.hpp"

namespace toolguard::detail {

/// {"at": ms since the epoch, "tool", "summary", "labels": [...], "decision"?},
/// with tool and summary clipped, at most 16 labels of at most 64 bytes.
nlohmann::json sessionEventJson(const SessionEvent& event);

/// What a call did, for the reasons of later decisions ("Bash curl ...",
/// "WebFetch {...}"), with its secrets left out.
std::string sessionSummaryOf(const ToolCall& call);

/// The event `json` holds, or nullopt when it is not one as written above.
std::optional<SessionEvent> sessionEventFrom(const nlohmann::json& json);

}  // namespace toolguard::detail
