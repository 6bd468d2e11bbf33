#pragma once
// Internal: what the built-in shell rules know about paths and programs.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// What a command rule sees: the command, its program and the call.
struct CommandScene {
  const SimpleCommand& command;
  const ShellProgram& program;
  const CallView& view;
  const std::string& home;
};

/// How a word that names a path relates to the places that must not be
/// deleted, moved or changed wholesale.
enum class PathRisk {
  Ordinary,   ///< an ordinary place
  Protected,  ///< `/`, a top-level system directory, the home directory or a parent of it,
              ///< a credential directory; or a glob or run-time value starting there
  Unknown     ///< only known at run time and not starting at a known place
};

/// Classifies a path word (made absolute against the call's cwd).
PathRisk pathRisk(const ShellWord& word, const CommandScene& scene);

/// Stands for a directory only known at run time (after `cd $X` or `cd -`).
inline constexpr const char* kUnknownDirectory = "/<unknown directory>";

/// The directory a command runs in: the call's cwd, moved by the `cd` and
/// `pushd` commands before it in the program; nullopt once it is known only
/// at run time.
std::optional<std::string> effectiveCwd(const CommandScene& scene);

/// CallView's memo for effectiveCwd: for each wrapper depth met, the
/// directory each command of the view's program starts in (before its own
/// `env -C`), worked out in one pass over the program.
struct CommandCwds {
  struct Trail {
    /// The start, then the directory after each move, in order.
    std::vector<std::optional<std::string>> directories;
    std::vector<std::uint32_t> before;  ///< per command: index into directories
  };
  std::vector<std::pair<size_t, Trail>> by_depth;
};

/// The word as an absolute, lexically normal path (against effectiveCwd()).
std::string absolutePath(const ShellWord& word, const CommandScene& scene);

/// The word as a path in both forms: absolutePath(), and that with its
/// symlinks followed (the same resolution file tools' paths get). A path under
/// a directory known only at run time stays as it is; one that cannot be
/// resolved (a loop, a control character) resolves to kUnknownDirectory, so
/// it is never inside the workspace.
ResolvedPath resolvedPath(const ShellWord& word, const CommandScene& scene);

/// The path with ASCII letters in lower case.
std::string asciiLower(std::string text);

/// True when `test` holds for any form of the path (anyForm), or, on a file
/// system that ignores case, for any form in lower case (the names the shell
/// rules know are lower case).
template <typename Test>
bool eitherForm(const ResolvedPath& path, Test test) {
  if (anyForm(path, test)) return true;
  return path.case_insensitive &&
         anyForm(path, [&](const std::string& form) { return test(asciiLower(form)); });
}

/// True for block devices and disks (/dev/sda, /dev/nvme0n1, /dev/disk2, ...).
bool isBlockDevice(std::string_view path);

/// True for the harmless character devices commands write to (/dev/null, ...).
bool isHarmlessDevice(std::string_view path);

/// True for files that hold secrets (.env, private keys, cloud credentials).
bool isSecretFile(const std::string& path);

/// Whether a redirection writes a file: `>`, `>>`, `&>`, `>|`, ... to a
/// place other than /dev/null, a descriptor duplicated or closed (`2>&1`,
/// `>&-`); a target known only at run time counts as a file.
bool redirectWritesAFile(const ShellRedirect& redirect);

/// True when `name` is a shell or an interpreter that runs code it reads.
bool isInterpreter(std::string_view name);

/// True when `name` sends data over the network.
bool isNetworkSender(std::string_view name);

/// The paths a command writes, as written (commandPaths' writes): redirection
/// targets, and what tee, cp, mv, touch, mkdir, sed -i, ln, dd of=, rm, chmod ...
/// change.
std::vector<ShellWord> writtenPaths(const SimpleCommand& command);

}  // namespace toolguard::detail
