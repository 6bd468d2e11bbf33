#pragma once
// Shell commands as programs: what bash will actually run, parsed with the
// tree-sitter bash grammar (never with regular expressions on the raw text).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard {

/// One word of a command after quote removal and escape resolution:
/// `r''m`, `"rm"` and `r\m` are all `rm`. A word whose value is only known at
/// run time (`$x`, `$(...)`, backquotes, globs, brace expansion) is dynamic;
/// its `text` then holds what is known (the literal parts).
struct ShellWord {
  std::string text;
  bool dynamic = false;
  std::string source;  ///< the word as written
};

/// A redirection: operator (`>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<`, `>|`, ...),
/// the file descriptor if one is written, and the target.
struct ShellRedirect {
  std::string op;
  std::optional<int> fd;
  ShellWord target;
  /// For `<<` and `<<-`: the here-document's text (leading tabs removed for
  /// `<<-`), dynamic when bash expands it at run time (unquoted delimiter
  /// and a `$` or backquote in it). Empty for other redirections.
  ShellWord document;
};

/// Where a simple command sits in the program.
struct ShellPlacement {
  size_t pipeline_position = 0;          ///< 0-based position in its pipeline
  size_t pipeline_length = 1;            ///< 1 when not in a pipeline
  bool background = false;               ///< run with `&`
  bool in_subshell = false;              ///< inside `( ... )`
  bool in_command_substitution = false;  ///< inside `$( ... )` or backquotes
  bool in_process_substitution = false;  ///< inside `<( ... )` or `>( ... )`
  bool in_function = false;              ///< inside a function body
  std::string function_name;             ///< the name of that function
  bool in_condition = false;             ///< in an if/while condition or a test
};

/// How a command is reached through commands that run other commands.
struct ShellWrapper {
  std::string name;          ///< "sudo", "env", "bash -c", "eval", "xargs", "find -exec", ...
  size_t command_index = 0;  ///< index (in ShellProgram::commands) of the wrapping command
};

/// One simple command: words (the command name first), assignments that
/// prefix it, redirections, and where it sits.
struct SimpleCommand {
  std::vector<ShellWord> words;
  std::vector<std::pair<std::string, ShellWord>> assignments;
  std::vector<ShellRedirect> redirects;
  ShellPlacement placement;
  std::vector<ShellWrapper> wrappers;    ///< outermost first; empty for a top-level command
  bool privileged = false;               ///< run through sudo, doas, su, pkexec
  bool unknown_extra_arguments = false;  ///< xargs / find -exec {} add words only known at run time
  /// The directory a wrapper runs it in (`env -C DIR`, `sudo -D DIR`),
  /// relative to where the wrapper runs; unset when it runs where the wrapper does.
  std::optional<ShellWord> working_directory;
  /// What it reads on its standard input, when that is known before it
  /// runs: a here-string, a here-document, or the known output of the stage
  /// before it in a pipeline (`printf 'ls\n' | sh`). Unset when it reads
  /// something only known at run time; dynamic when partly known.
  std::optional<ShellWord> input;
  std::string text;  ///< the command as written (for unwrapped ones, the inner text)

  /// The command name as the shell looks it up: the first word, with a path
  /// reduced to its base name (`/usr/bin/rm` is `rm`). Empty when there are
  /// no words (a bare assignment or redirection).
  std::string name() const;
  /// The same name as a view into the first word (no copy): valid while the
  /// command is.
  std::string_view commandName() const;

  /// The name with its subcommand when it has one (`git push`, `npm
  /// publish`): the first argument when it is a plain word, not an option or
  /// a path. For reasons that say which command was not known.
  std::string nameWithSubcommand() const;

  /// True when the name is only known at run time (`$(echo rm) -rf /`, `$cmd`).
  bool nameIsDynamic() const;

  /// True when the command is run from a place that is not a system directory
  /// (`./git`, `/tmp/git`, `bin/git`): it is not the system tool and must not
  /// inherit that tool's allow rules.
  bool runsFromUnusualPlace() const;

  /// The words after the command name (a view into `words`).
  std::span<const ShellWord> arguments() const;
};

/// A parsed shell program: every simple command in it, including those inside
/// lists, pipelines, subshells, substitutions, functions, control structures,
/// and those unwrapped from sudo, env, bash -c, eval, xargs, find -exec, ...
struct ShellProgram {
  std::vector<SimpleCommand> commands;
  bool parse_error = false;  ///< the text does not parse cleanly
  std::string error;         ///< what and where, when parse_error
  bool too_deep = false;     ///< wrappers nested beyond the limit (never allowed)
};

/// Options for parsing.
struct ShellParseOptions {
  std::string home;             ///< value of `~`, `$HOME`, `${HOME}`; empty: homeDirectory()
  size_t max_unwrap_depth = 8;  ///< `bash -c "bash -c ..."` deeper than this sets too_deep
};

/// Parses a shell command line into a program. Never throws for bad input:
/// a text that does not parse sets parse_error (and keeps what could be read).
ShellProgram parseShellProgram(std::string_view script, const ShellParseOptions& options = {});

}  // namespace toolguard
