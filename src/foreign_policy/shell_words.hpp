#pragma once
// Internal: argument lists as Codex reads example strings (Rust's `shlex`
// crate), and argument lists written back as shell text for toolguard.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// Splits text into words the way Rust's `shlex::split` (crate shlex 1.x)
/// does: blanks are space, tab and newline; '...' is literal; in "..." a
/// backslash escapes $ ` " \ and newline and is kept before anything else;
/// outside quotes a backslash escapes the next character; `#` at the start of
/// a word comments out the rest of the line. nullopt for an unterminated
/// quote or a trailing backslash. No operators: `a && b` is three words.
/// These are sh's rules for words, so `toolguard install` reads the hook
/// commands in agents' settings with it too (src/cli/agent_hooks.cpp).
std::optional<std::vector<std::string>> shlexSplit(std::string_view text);

/// Writes an argument list as one bash simple command whose words are exactly
/// `argv`: words that are not plain ([A-Za-z0-9_@%+:,./-]) are single-quoted,
/// and so is a first word that bash would read as a keyword.
std::string shellJoin(const std::vector<std::string>& argv);

}  // namespace toolguard::detail
