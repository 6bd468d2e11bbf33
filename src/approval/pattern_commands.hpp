#pragma once
// Internal: the commands a remembered pattern ("git push *") may cover, and
// the words of theirs it may cover. Closed world: a command not listed here
// (every program that runs project code or code given to it: make, rake, tox,
// nox, npm run, pip install, terraform, interpreters, ...) is approved by
// exact call only, and a listed command is covered only while every option
// it has is one known to be harmless.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// A command prefix a pattern may name, with the options known harmless.
struct PatternCommand {
  std::string_view prefix;  ///< "gh pr list|view": the last word's alternatives
  std::string_view flags;   ///< options without a value, `|`-separated
  std::string_view valued;  ///< options with a value (`--depth 1`, `--depth=1`)
  /// Operands starting with one of these characters are not covered
  /// (`git push +main` forces, `git push origin :main` deletes).
  std::string_view refused_operand_starts = {};
  /// The first operand, when there is one, must name a remote the
  /// repository's configuration has (`git push ./evil.git` runs that
  /// repository's hooks; a URL sends the code anywhere).
  bool remote_first = false;
  /// Refspecs may name a local destination (`src:dst`); not for fetch, which
  /// would move a local branch to what the remote has.
  bool local_destinations = true;
};

/// The entry whose prefix the pattern's first words spell, and how many
/// words that prefix has; nullopt when no entry does.
std::optional<std::pair<const PatternCommand*, size_t>> patternCommandOf(
    const std::vector<std::string>& pattern_tokens);

/// Whether every word of `command` after its first `prefix_words` is a word
/// known before it runs and either an operand or a harmless option of `entry`.
/// `cwd` is where the command runs (its repository's remotes are read there).
bool onlyHarmlessWords(const SimpleCommand& command, const PatternCommand& entry,
                       size_t prefix_words, const std::string& cwd);

/// The listed prefixes, for messages ("git push, git fetch, ...").
std::string patternCommandList();

}  // namespace toolguard::detail
