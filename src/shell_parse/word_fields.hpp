#pragma once
// Internal: the steps bash takes on a word after reading it (brace
// expansion, tilde expansion, field splitting on IFS), over text whose every
// byte remembers where it came from.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shell_env.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// Where one byte of a word came from, which decides what bash does with it.
enum Mark : uint8_t {
  kQuoted = 0,   ///< quoted or escaped: taken as it is
  kLiteral = 1,  ///< unquoted text as written: braces, `~` and globs act
  kSplit = 2,    ///< from an unquoted expansion: IFS splits it, globs act
};

/// Something between two bytes of a word that splitting must see, in the
/// order the word was read.
struct WordEvent {
  enum Kind : uint8_t {
    kBreak,  ///< "$@" ends a word here: kept even when empty
    kLoose,  ///< unquoted $@ or $* ends a word here: an empty one vanishes
    kNull,   ///< a quoted empty string ("", '', "$empty"): its word is kept
    kEmpty,  ///< an unquoted expansion that came out empty (`$X` before `~`)
  };
  size_t at;  ///< byte offset
  Kind kind;
};

/// A word's text being built, with a mark per byte.
struct MarkedText {
  std::string text;
  std::vector<uint8_t> marks;
  std::vector<WordEvent> events;        ///< in order (offsets never decrease)
  std::vector<size_t> after_bare_name;  ///< offsets right after an unquoted `$NAME`
  bool dynamic = false;                 ///< some part is known only at run time
  bool assigns = false;                 ///< a `${NAME=word}` in it assigned NAME
  bool positional_inside = false;       ///< an unquoted $@ or $* is part of it

  void append(std::string_view s, Mark mark);
  void event(WordEvent::Kind kind) { events.push_back(WordEvent{text.size(), kind}); }
  /// Words of `$@` or `$*` end inside it (not one word in an assignment).
  bool hasBreaks() const;
  /// A quoted empty string or an empty expansion at an offset in [from,
  /// to]: text bash read there that is not a tilde or a brace sequence.
  bool hasNullIn(size_t from, size_t to) const;
};

/// A letter sequence between the cases (`{Z..a}`): it makes `[ \ ] ^ _` and
/// a backquote, which bash then reads as syntax (the backquote starts a
/// command substitution). Such a word runs code nobody can judge.
bool makesSymbolSequence(const MarkedText& word);

/// Brace expansion (`{a,b}`, `{1..3}`, nested) over the literal braces and
/// commas; nullopt when it would make more than `budget` words.
std::optional<std::vector<MarkedText>> expandBraces(const MarkedText& word, size_t budget);

/// Tilde expansion at the start of the word (`~`, `~/x`, `~user`), and after
/// `=` and `:` in a word that looks like an assignment (`of=~/x`) when
/// `assignment_like` (bash no longer sees the words brace expansion makes as
/// assignments: `x=~/y{a,b}` keeps its `~`), or in an assignment's value
/// (`assignment`: the value starts as if after `=`).
void expandTildes(MarkedText& word, const ShellEnv& env, bool assignment,
                  bool assignment_like = true);

/// Field splitting on IFS and the glob check: the words bash passes on.
/// A word with a glob is dynamic; an unquoted empty expansion vanishes.
void splitFields(const MarkedText& word, const ShellEnv& env, const std::string& source,
                 std::vector<ShellWord>& out);

}  // namespace toolguard::detail
