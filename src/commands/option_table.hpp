#pragma once
// Internal: the closed world of ordinary work. Each program the guard lets
// through without a question has a table of the options it may take while
// staying harmless: their spellings, whether they take a value, and what the
// value is. A command is harmless only when every one of its words is known
// from the table; any other option, in any spelling, is not known (docs/
// ordinary-work.md).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

struct CommandScene;

/// How a program reads its options.
enum class OptionStyle : unsigned char {
  /// GNU getopt_long: `-abc` bundles, `-ovalue` and `-o value`, `--name=value`
  /// and `--name value`, options after operands, `--` ends them. Abbreviated
  /// long options are not in any table, so they are never known.
  Gnu,
  /// One dash or two before a long name (`-name`, `--name`), `=value` or the
  /// next word, no bundling (Go's flag package, find's options, gcc, java).
  /// Single-letter spellings also take a glued value (`-Idir`, `-O2`).
  Long,
  /// Go's flag package: as Long, but a one-letter option never takes a
  /// glued value (`-overlay` is not `-o verlay`).
  Go,
};

/// What the operands (the words that are not options) may be.
enum class OperandRule : unsigned char {
  Any,   ///< anything: paths among them meet the path rules on their own
  None,  ///< no operands at all
  Sub,   ///< the first operand names a subcommand, which has its own table
};

struct TableParse;

/// One program (or one subcommand of one) and its harmless options.
/// `options` is a list of entries separated by spaces, each the spellings of
/// one option separated by `|` and, for an option with a value, `=KIND`
/// (or `?=KIND` for a value that may only be glued: `--color`, `--color=auto`).
/// KIND is one of:
///   text    free text (a pattern, a message, a format)
///   num     a count or size: digits, with a sign or unit (`-5`, `+3`, `10K`, `1.5`)
///   word    a name: letters, digits and `_.+-:=` (no `/`, `,` or spaces)
///   read    a path the program reads        (judged by the path rules)
///   tree    a directory the program reads   (judged by the path rules)
///   write   a path the program writes       (judged by the path rules)
///   inside  a path it runs from or loads code or configuration from: known
///           only when it is written out and inside the workspace
///   {a,b}   one of these words
///   sub     a module or subcommand named by an option (`python -m pytest`):
///           the rest of the words are read with the table of
///           "COMMAND OPTION VALUE" ("python -m pytest"); none: not known
/// `-#` stands for the old `-NUMBER` form (`head -20`). An entry that ends
/// in `*` (`-W*=word`) is a family: any spelling with that start whose rest
/// is a KIND value (`-Wall`, `-Wno-unused`).
struct ProgramSpec {
  /// The program's names and, for a subcommand, the subcommand's: "grep|egrep",
  /// "git stash list|show". The last word's alternatives are the names.
  std::string_view command;
  std::string_view options;
  OperandRule operands = OperandRule::Any;
  OptionStyle style = OptionStyle::Gnu;
  /// Words starting with `@` are files of more options (gcc, javac): not known.
  bool response_files = false;
  /// A check of what only code can judge (a sed script, a date format);
  /// nullptr when the table says everything.
  bool (*check)(const TableParse& parse, const CommandScene& scene) = nullptr;
  /// Its words are only data (echo, test, expr): a word known only at run
  /// time is an operand whatever it becomes, since no option of it does harm.
  bool words_are_data = false;
  /// For OperandRule::Sub: the subcommand a call without one runs (`yarn`
  /// alone installs); empty when the program needs one.
  std::string_view without_subcommand = {};
  /// The first operand ends the options (a wrapper: `timeout 5 make -j4`,
  /// `uv run pytest -x`): the words after it belong to the command it runs.
  bool options_end_at_operand = false;
};

/// The kind of an option's value.
enum class ValueKind : unsigned char {
  None,
  Text,
  Number,
  Word,
  Read,
  Tree,
  Write,
  Inside,
  Choice,
  Sub
};

/// One option found in a command, with its value.
struct FoundOption {
  std::string spelling;        ///< as the command spelled it ("--lines", "-n")
  std::string_view spellings;  ///< every spelling of its table entry ("-n|--lines")
  ValueKind kind = ValueKind::None;
  ShellWord value;  ///< when kind is not None
};

/// A command read with a program's table.
struct TableParse {
  const ProgramSpec* spec = nullptr;  ///< the innermost (sub)command's table
  std::vector<FoundOption> options;
  std::vector<ShellWord> operands;
  /// Empty when every word is known; else the first word that is not, and why.
  std::string unknown;

  bool known() const { return unknown.empty(); }
  /// True when the option was given, in any of its spellings.
  bool has(std::string_view spelling) const;
  /// The values of an option, given in any of its spellings.
  std::vector<ShellWord> valuesOf(std::string_view spelling) const;
};

/// The table of a program by its name, or nullptr when it has none.
const ProgramSpec* programSpec(std::string_view name);

/// Every table (for tests that read each entry).
std::span<const ProgramSpec* const> allProgramSpecs();

/// Reads `arguments` (the words after the program's name) with `spec`,
/// following subcommands into their tables. Values whose kind is judged by
/// the path rules are only checked here for being written out; `inside`
/// values are checked against the workspace of `scene`, and the spec's
/// check runs, only when there is one (without: the words are only read).
TableParse parseWithTable(const ProgramSpec& spec, std::span<const ShellWord> arguments,
                          const CommandScene* scene);

/// Every spelling the spec lists (families with their `*`), for tests that
/// build the options a table does not hold.
std::vector<std::string_view> spellingsOf(const ProgramSpec& spec);

/// Checks that a spec is well formed: an empty string, or what is wrong and
/// where ("grep: entry 3 '--x=foo': unknown kind 'foo'").
std::string specProblem(const ProgramSpec& spec);

/// True when the word holds an expansion outside double quotes that bash
/// splits into fields (and globs) at run time.
bool maySplit(const ShellWord& word);

/// True when the word cannot turn into an option or several words at run
/// time: written out, or an expansion inside double quotes after a literal
/// first character that is not `-`.
bool wordIsFixedOperand(const ShellWord& word);

}  // namespace toolguard::detail
