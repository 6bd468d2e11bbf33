#pragma once
// Internal: reading the commands out of a Makefile (makefile_scripts.cpp),
// and the line splitting the build file readers share.

#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// The lines of a text, split at '\n' (a last line without one included).
std::vector<std::string> textLines(std::string_view text);

/// What make would run from a Makefile's text: recipes (with plainly set
/// variables substituted), `$(shell ...)` and `!=`; and, as unjudged parts
/// (build_files.hpp), recipes holding a variable known only when make runs,
/// and the lines that change how recipes run or link them.
std::vector<std::string> makefileScripts(std::string_view content);

}  // namespace toolguard::detail
