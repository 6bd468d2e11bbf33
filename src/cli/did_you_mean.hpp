#pragma once
// Suggestions for a mistyped name: a command, a key, a verdict, a profile.

#include <string>
#include <string_view>
#include <vector>

namespace toolguard::cli {

/// " (did you mean 'check'?)" for the known names closest to `typed` (a few
/// edits away, or the names it begins), or "" when none is close.
std::string didYouMean(std::string_view typed, const std::vector<std::string>& known);

}  // namespace toolguard::cli
