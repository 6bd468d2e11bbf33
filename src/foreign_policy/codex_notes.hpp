#pragma once
// Internal: what `toolguard policy import` tells the user about a Codex rule
// that toolguard reads differently from Codex (always more strictly).

#include <string>
#include <vector>

#include "foreign_policy/codex_calls.hpp"

namespace toolguard::detail {

/// How toolguard's reading of the rule differs from Codex's: an allow rule
/// allows each simple command on its own and only under the name as written;
/// a prompt or forbidden rule reaches commands Codex never looks at.
std::vector<std::string> readingNotes(const CodexPrefixRule& rule);

/// An alternative of an allow rule that no command can meet, left out.
std::string droppedAlternativeNote(const std::string& what);

/// An allow rule left out: nothing of its pattern can be matched safely.
std::string leftOutNote(const CodexPattern& pattern);

/// An allow rule left out: toolguard's reading would allow a `not_match` example.
std::string looserExampleNote(const std::string& example);

/// An example Codex honours that toolguard's reading does not (so it is not
/// checked at load): a `match` example an allow rule does not allow, a
/// `not_match` example a prompt or forbidden rule also catches, or a `match`
/// example a prompt or forbidden rule misses.
std::string disagreeingExampleNote(const std::string& example, bool allow, bool should_match);

}  // namespace toolguard::detail
