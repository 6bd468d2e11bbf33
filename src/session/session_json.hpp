#pragma once
// Internal: a remembered session event as JSON, the same in every store
// (the file store's lines, the service's database rows), with its fields
// clipped to their bounds.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/session_state.hpp"

namespace toolguard::detail {

/// {"at": ms since the epoch, "tool", "summary", "labels": [...], "decision"?},
/// with tool and summary clipped, at most 16 labels of at most 64 bytes.
nlohmann::json sessionEventJson(const SessionEvent& event);

/// The event one line of JSON holds (as sessionEventFrom reads it), or
/// nullopt (a run line too: it holds several). Lines as sessionEventJson
/// writes them are read by a parser of exactly that shape, some twenty
/// times cheaper than a JSON document; any other line is read as JSON.
std::optional<SessionEvent> sessionEventFromLine(std::string_view line);
/// The same into `event` (whose fields are empty): false when the line
/// holds no event, or a run of several (readSessionLine reads those);
/// `event` is then left in an unspecified state.
bool readSessionEventLine(std::string_view line, SessionEvent& event);

/// A file store's line of `calls` calls in a row that brought no label
/// (written when a session's file is rewritten, so that a long session's
/// file holds a line for each labelled call and one for each run of the
/// others): {"at", "calls": N, "labels": [], "tool"}, the run's latest time
/// and its last call's tool. A call without a label is only counted
/// (windows, "N calls back"; rememberCall keeps no summary or decision for
/// it): once in a run, its tool and time are the run's. The line has no
/// "summary", so a toolguard that knows no runs (which would count one
/// call) cannot read it and takes the session to have seen everything.
nlohmann::json sessionRunJson(const SessionEvent& event, size_t calls);
/// Reads an event line or a run line: `calls` is 1 for an event line, N for
/// a run. False for anything else (a run of fewer than 2 or more than
/// kMaxRunCalls calls, or one with a label or any key but its four, too).
bool readSessionLine(std::string_view line, SessionEvent& event, size_t& calls);
/// The most calls one run line may stand for.
inline constexpr size_t kMaxRunCalls = 1000000;
/// The lines of `events` as a file holds them, each ending in a newline:
/// a line per event, except that consecutive events without a label,
/// summary or decision share a run line.
std::string sessionLinesOf(const std::vector<SessionEvent>& events);

/// What a call did, for the reasons of later decisions ("Bash curl ...",
/// "WebFetch {...}"), with its secrets left out.
std::string sessionSummaryOf(const ToolCall& call);

/// The run `json` holds (as sessionRunJson writes it) into `event` and
/// `calls`; false when it holds none.
bool sessionRunFrom(const nlohmann::json& json, SessionEvent& event, size_t& calls);

/// The event `json` holds, or nullopt when it is not one as written above
/// (a run line is not: it has no summary).
std::optional<SessionEvent> sessionEventFrom(const nlohmann::json& json);

}  // namespace toolguard::detail
