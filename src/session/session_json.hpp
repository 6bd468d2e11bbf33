#pragma once
// Internal: a remembered session event as JSON, the same in every store
// (the file store's lines, the service's database rows), with its fields
// clipped to their bounds.

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "toolguard/session_state.hpp"

namespace toolguard::detail {

/// {"at": ms since the epoch, "tool", "summary", "labels": [...], "decision"?},
/// with tool and summary clipped, at most 16 labels of at most 64 bytes.
nlohmann::json sessionEventJson(const SessionEvent& event);

/// The event one line of JSON holds (as sessionEventFrom reads it), or
/// nullopt. Lines as sessionEventJson writes them are read by a parser of
/// exactly that shape, some twenty times cheaper than a JSON document; any
/// other line is read as JSON, with the same result.
std::optional<SessionEvent> sessionEventFromLine(std::string_view line);
/// The same into `event` (whose fields are empty): false when the line
/// holds no event; `event` is then left in an unspecified state.
bool readSessionEventLine(std::string_view line, SessionEvent& event);

/// What a call did, for the reasons of later decisions ("Bash curl ...",
/// "WebFetch {...}"), with its secrets left out.
std::string sessionSummaryOf(const ToolCall& call);

/// The event `json` holds, or nullopt when it is not one as written above.
std::optional<SessionEvent> sessionEventFrom(const nlohmann::json& json);

}  // namespace toolguard::detail
