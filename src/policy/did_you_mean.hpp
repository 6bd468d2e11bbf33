#pragma once
// Internal: suggestions for a mistyped name (a sub-command, a key of a policy
// file or a call, a verdict, a profile), shared by the library and the command.

#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// " (did you mean 'check'?)" for the known names closest to `typed` (a few
/// edits away, or the names it begins), or "" when none is close.
std::string didYouMean(std::string_view typed, const std::vector<std::string>& known);

/// The names of a comma-separated list ("allow, ask, deny" -> allow, ask, deny).
std::vector<std::string> splitNameList(std::string_view list);

/// "HEAD 'typed'TAIL (did you mean 'x'?)" when a known name is close, else
/// "HEAD 'typed'TAIL (expected LIST)": the message for a name nobody knows.
std::string unknownNameMessage(std::string_view head, std::string_view typed, std::string_view tail,
                               std::string_view list);

}  // namespace toolguard::detail
