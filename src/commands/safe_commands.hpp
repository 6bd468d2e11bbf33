#pragma once
// Internal: the ordinary work a careful engineer lets an agent do in its own
// workspace without a word (the built-in rule shell-safe).

#include <optional>
#include <string>

#include "shell_facts.hpp"

namespace toolguard::detail {

/// What kind of ordinary work the command is ("read-only tool", "git",
/// "build or test", "file operation in the workspace", ...), or nullopt when
/// it is not known to be harmless with these options. Only the command
/// itself is judged here: every path it reads or writes meets the path rules
/// on its own, and any stricter rule wins.
std::optional<std::string> safeCommand(const CommandScene& scene);

struct ProgramSpec;

/// The same judgement, saying in `unknown` which word or variable was not
/// known to be harmless when it is false. When it is true and `table` is
/// given, *table is the innermost (sub)command's table that read it (`git
/// stash list`'s, not git's).
bool ordinaryWork(const CommandScene& scene, std::string& unknown,
                  const ProgramSpec** table = nullptr);

/// "prints $NAME, which may hold a credential" for echo or printf of a
/// variable not known to hold none (variable_lists.hpp); nullopt otherwise.
std::optional<std::string> printsSecretVariable(const SimpleCommand& command);

/// True when every path the command reads or writes is a file in the
/// workspace (not the workspace itself, nor all of it at once).
bool workspaceFileOperation(const CommandScene& scene);

/// True for an http(s) URL (or a bare `host/path`) of the developer's own machine:
/// localhost, 127.0.0.1, [::1] or 0.0.0.0 with at most a numeric port, nothing
/// else in the authority (see core/web_url.hpp).
bool isLocalUrl(const ShellWord& url);

/// True for `source DIR/bin/activate` of a virtual environment inside the workspace.
bool activatesWorkspaceVenv(const CommandScene& scene);

/// True when a sed script runs nothing, writes no file and reads no other
/// file (no `e`, `w`, `W`, `r`, `R` commands, no `s///e` or `s///w` flags).
bool sedScriptIsSafe(std::string_view script);

/// True when an awk program runs nothing and writes or reads no file by
/// itself (no system(), pipes, getline, or output redirection).
bool awkProgramIsSafe(std::string_view program);

}  // namespace toolguard::detail
