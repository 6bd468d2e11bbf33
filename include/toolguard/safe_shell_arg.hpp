#pragma once
// isSafeShellArg: can a value from a model be pasted into a shell command as
// one plain word, with no quoting, expansion or option injection?

#include <optional>
#include <string>
#include <string_view>

namespace toolguard {

/// The characters a shell gives meaning to; isSafeShellArg rejects each one:
/// `|` `&` `;` `<` `>` `(` `)` (operators), space, tab, newline (word
/// splitting), `$` and backquote (expansion and command substitution), `\`,
/// `'` and `"` (quoting), `*` `?` `[` `]` (globs), `{` `}` (brace expansion),
/// `~` (home), `#` (comments), `!` (history), `^` (zsh and old shells' pipe).
inline constexpr std::string_view kShellMetacharacters = "|&;<>() \t\n$`\\'\"*?[]{}~#!^";

/// What isSafeShellArg accepts besides plain words.
struct SafeShellArgOptions {
  bool allow_leading_dash = false;  ///< accept "-x" (only when the command ends its options first)
  bool allow_empty = false;         ///< accept "" (an empty word needs quotes to survive)
  /// accept `%`: Windows `cmd` expands `%NAME%` (even inside quotes), so a
  /// value run under cmd (netsh, a .bat file) must not carry it
  bool allow_percent = false;
  /// accept `=`: `NAME=value` as the first word sets a variable instead of
  /// naming a command, `--opt=value` smuggles an option's value, and cmd
  /// splits a batch file's arguments at `=`
  bool allow_equals = false;
};

/// Why `value` is not a safe shell word (naming the character and its byte
/// offset), or nullopt when it is. Besides the metacharacters it rejects
/// control characters (C0, DEL, C1), NUL, invisible and bidirectional
/// formatting characters (U+00AD, U+061C, U+200B-U+200F, U+202A-U+202E, U+2060-U+2064,
/// U+2066-U+2069), bytes that are not UTF-8, and, unless options allow them,
/// `%` and `=` (cmd's variable expansion, assignments), a leading `-`
/// and the empty string.
std::optional<std::string> unsafeShellArgReason(std::string_view value,
                                                const SafeShellArgOptions& options = {});

/// True when `value` can be pasted into a shell command line (POSIX or
/// Windows `cmd`) as one word: see unsafeShellArgReason.
inline bool isSafeShellArg(std::string_view value, const SafeShellArgOptions& options = {}) {
  return !unsafeShellArgReason(value, options).has_value();
}

}  // namespace toolguard
