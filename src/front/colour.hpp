#pragma once
// Colour in the command's output: verdicts painted on a terminal, never in a
// pipe or a file, never when NO_COLOR is set (https://no-color.org).

#include <string>
#include <string_view>

namespace toolguard::front {

/// Whether output to `fd` gets colour under `mode`: always; never; auto when
/// `fd` is a terminal and NO_COLOR is unset or empty.
bool colourWanted(std::string_view mode, int fd);

/// `text` in the colour of `verdict` ("allow" green, "ask" yellow, "deny" and
/// "abort" red, others as they are) when `on`, else `text` as it is.
std::string paintVerdict(std::string_view verdict, const std::string& text, bool on);

}  // namespace toolguard::front
