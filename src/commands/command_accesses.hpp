#pragma once
// Internal: the paths a simple command reads and writes, resolved where the
// command runs, for the path rules (the shell's route to them).

#include <vector>

#include "shell_facts.hpp"
#include "toolguard/path_access.hpp"

namespace toolguard::detail {

/// Every path the command reads or writes (commandPaths), resolved against
/// the directory it runs in:
/// - a glob is expanded as bash would, each file it finds is an access, and
///   the glob itself is a Pattern access (it may find more when it runs);
/// - a word with a run-time part (`$X/.env`, `~/$D`) is a Pattern with that
///   part as `**`, whose location is unknown when it starts with one;
/// - `{}` of `find -exec` is what find walks (its start points as Trees, or
///   its `-name` globs under them);
/// - a command run by `xargs` gets the words a literal producer gives it
///   (`echo FILE | xargs cat`, `xargs cat <<< FILE`).
std::vector<PathAccess> commandAccesses(const CommandScene& scene);

/// The command as it runs with the words `xargs` or `find -exec` add at run
/// time: each a word with a run-time part standing for the names (a path
/// under find's start points, `./` before names that start with a directory
/// and never with `-`; a bare run-time word for names that may start with
/// `-`, like git's; a path from `/` for names from anywhere). One command
/// per place the names come from; the command itself when it gets none.
std::vector<SimpleCommand> withXargsInputs(const CommandScene& scene);

/// Whether the command may get words at run time from `xargs` or `find
/// -exec` (withXargsInputs then writes them out); else it runs as written.
bool getsRunTimeWords(const SimpleCommand& command);

}  // namespace toolguard::detail
