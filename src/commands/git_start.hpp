#pragma once
// Internal: where git runs and reads paths from (git's own -C options), for
// the git tables' checks (table_git.cpp).

#include <cstddef>
#include <optional>
#include <string>

#include "shell_facts.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {

// Where git's own options end in the command, and the directory it runs in:
// the command's own, moved by each `-C DIR` in turn (git takes -C only as a
// word of its own, so `-Cdir` and `-PC` make it fail); nullopt when only
// known at run time.
struct GitStart {
  size_t subcommand = 0;  ///< index in the command's arguments
  std::optional<std::string> directory;
};

/// Where git's options end and the directory it runs in, for `scene`'s command.
GitStart gitStart(const CommandScene& scene);

/// A path as git reads it: relative to the directory it runs in.
ResolvedPath gitPath(const std::string& directory, const std::string& path,
                     const CommandScene& scene);

/// True when git runs in the workspace: it reads the repository of the
/// directory it runs in, and another tree's (`cd ~/.password-store && git
/// log -p`) is a way to read that tree's secrets.
bool runsInWorkspace(const GitStart& start, const CommandScene& scene);

}  // namespace toolguard::detail
