#pragma once
// Glob patterns translated to RE2 syntax (so every pattern runs in linear time).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// `*` any run of characters, `?` one character, `[...]` a class; the rest literal.
std::string textGlobToRegex(std::string_view glob);

/// Gitignore-like path globs on absolute paths: `*`, `?` and `[...]` stay within
/// one component, `**` spans components, a leading `~/` is `home`, and a
/// pattern that does not start with `/` (after `~` expansion) matches at any
/// depth. A trailing `/**` also matches the directory itself.
std::string pathGlobToRegex(std::string_view glob, std::string_view home);

/// A run of characters that every path matching pathGlobToRegex(glob, home)
/// contains, as written (the longest such run the glob shows), or "" when the
/// glob requires none (`*`, `**/*`). Lets a matcher answer "no" without
/// compiling the expression.
std::string requiredPathGlobLiteral(std::string_view glob, std::string_view home);

/// "Might any of these globs match?" by their required literals, with no
/// regular expression: false only when none can. Disabled (always true) when
/// one glob requires no literal.
class GlobLiteralFilter {
 public:
  GlobLiteralFilter() = default;
  /// One literal for each glob (an empty one disables the filter).
  explicit GlobLiteralFilter(std::vector<std::string> literals);

  /// False when `name` holds none of the literals, so no glob can match it.
  /// `fold`: compare ignoring case (as the case-insensitive expressions do);
  /// exact only for ASCII, so a name with other bytes is always "maybe".
  bool mayMatch(std::string_view name, bool fold) const;

 private:
  bool enabled_ = false;
  std::vector<std::string> literals_;
};

/// For a glob that only says "the name ends with LITERAL" (`*.md`,
/// `**/*.cpp`: unanchored, one `*`, then characters with no wildcard and no
/// `/`), LITERAL; else nullopt. Such a glob matches exactly the paths whose
/// last component ends with LITERAL, which needs no regular expression.
std::optional<std::string> suffixOfNameGlob(std::string_view glob);

/// True when the last component of `path` ends with `suffix` (ASCII case
/// ignored when `fold`; the caller keeps non-ASCII names for RE2's folding).
bool lastComponentEndsWith(std::string_view path, std::string_view suffix, bool fold);

/// True when `text` has a byte outside ASCII.
bool hasNonAscii(std::string_view text);

/// Fails, saying why, for a path glob that can never match a path as
/// toolguard compares paths (absolute, `.` and `..` resolved, `~` the home
/// directory): `../x`, `a/../b`, `a/./b`, `~user/x`, an empty glob.
Expected<void> checkPathGlob(std::string_view glob);

}  // namespace toolguard::detail
