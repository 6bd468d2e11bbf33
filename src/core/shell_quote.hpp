#pragma once
// Internal: one word written as bash text that reads back as exactly that
// word (single quotes, or no quotes when none are needed).

#include <string>
#include <string_view>

namespace toolguard::detail {

/// Whether `=` may stand unquoted in a word: not in a word that may come
/// first in a command, where `NAME=value` is an assignment.
enum class EqualsSign { Plain, Quoted };

/// `word` in single quotes, each quote inside written '\'' (always quoted,
/// "" included: '').
std::string singleQuoted(std::string_view word);

/// Whether bash reads `word` unquoted as itself wherever it stands: not
/// empty, and only ASCII letters, digits and _@%+:,./- (and = when `equals`
/// is Plain). Keywords (`if`, `done`) are plain words here.
bool isPlainShellWord(std::string_view word, EqualsSign equals);

/// `word` as it is when plain (isPlainShellWord), else singleQuoted.
std::string quotedIfNeeded(std::string_view word, EqualsSign equals);

}  // namespace toolguard::detail
