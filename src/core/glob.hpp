#pragma once
// Glob patterns translated to RE2 syntax (so every pattern runs in linear time).

#include <optional>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// `*` any run of characters, `?` one character, `[...]` a class; the rest literal.
std::string textGlobToRegex(std::string_view glob);

/// Gitignore-like path globs on absolute paths: `*`, `?` and `[...]` stay within
/// one component, `**` spans components, a leading `~/` is `home`, and a
/// pattern that does not start with `/` (after `~` expansion) matches at any
/// depth. A trailing `/**` also matches the directory itself.
std::string pathGlobToRegex(std::string_view glob, std::string_view home);

/// Why a path glob can never match a path as toolguard compares paths
/// (absolute, `.` and `..` resolved, `~` the home directory), or nullopt when
/// it can: `../x`, `a/../b`, `a/./b`, `~user/x`, an empty glob.
std::optional<std::string> pathGlobProblem(std::string_view glob);

}  // namespace toolguard::detail
