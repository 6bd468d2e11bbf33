#pragma once
// Internal: what a wrapper command (sudo, env, bash -c, eval, xargs, find
// -exec, ...) runs.

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// Where and when an unwrapped script runs, which decides what it knows of
/// the variables of the program around it.
enum class ScriptShell : uint8_t {
  Child,  ///< a new shell, now (bash -c, sh reading its input, su -c)
  Same,   ///< this shell, now (eval, an array subscript's substitution)
  Later,  ///< this shell or another, later (trap, alias, prompt, at)
};

/// One command a wrapper runs: either words (sudo rm -rf /) or a script to
/// parse again (bash -c '...', eval ..., env -S '...').
struct Unwrapped {
  std::string wrapper;
  std::vector<ShellWord> words;
  std::vector<std::pair<std::string, ShellWord>> assignments;  ///< env A=1 / sudo A=1
  std::optional<ShellWord> script;
  bool privileged = false;
  bool unknown_extra_arguments = false;
  std::optional<ShellWord> working_directory;  ///< env -C DIR, sudo -D DIR
  /// For a script: `$0` and the positional parameters it starts with, when
  /// known (`bash -c 'rm -rf "$1"' sh ~`).
  std::optional<std::string> zero;
  std::optional<std::vector<std::string>> positional;
  ScriptShell shell = ScriptShell::Child;
  /// The script runs in a named shell: true for one other than bash.
  std::optional<bool> posix;
  /// The shell reads the script from its standard input, which the
  /// script's own commands read too (`read` takes the next line of it).
  bool script_is_input = false;
};

/// True for the shells whose `-c` scripts are parsed as bash and unwrapped
/// (bash, sh, zsh, dash, ksh, mksh, ash).
bool runsBashScripts(std::string_view name);

/// The commands `cmd` runs on its behalf; empty when it wraps nothing.
std::vector<Unwrapped> unwrap(const SimpleCommand& cmd);

/// Code bash runs where no command seems to run it (hidden_code.cpp): trap
/// handlers, alias bodies, prompt strings (PS0-PS4, PROMPT_COMMAND), command
/// substitutions in array subscripts that declare, printf -v, read, test -v
/// and let evaluate, scripts given to at/batch, and the commands coproc,
/// parallel, flock, script, taskset, strace and ltrace run. Appended to `out`.
void unwrapHiddenCode(const SimpleCommand& cmd, std::vector<Unwrapped>& out);

/// Index of the first operand at or after `start`, skipping options; short
/// options in `short_with_argument` and long ones in `long_with_argument`
/// take the next word (or the rest of their cluster).
size_t skipOptionWords(const std::vector<ShellWord>& words, size_t start,
                       const std::string& short_with_argument,
                       const std::set<std::string>& long_with_argument);

}  // namespace toolguard::detail
