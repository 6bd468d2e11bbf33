// Where git runs and reads paths from: the directory of the command, moved
// by git's own -C options.
#include "git_start.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "toolguard/call_view.hpp"

namespace toolguard::detail {

GitStart gitStart(const CommandScene& scene) {
  const std::span<const ShellWord> args = scene.command.arguments();
  GitStart start;
  start.directory = effectiveCwd(scene);
  size_t at = 0;
  while (at < args.size() && !args[at].dynamic && args[at].text.starts_with('-')) {
    if (args[at].text == "-C" && at + 1 < args.size()) {
      const ShellWord& dir = args[at + 1];
      if (dir.dynamic) {
        start.directory.reset();
      } else if (!dir.text.empty() && start.directory) {
        start.directory = dir.text.starts_with('/') ? dir.text : *start.directory + "/" + dir.text;
      }
      at += 2;
    } else {
      ++at;
    }
  }
  start.subcommand = at;
  return start;
}

// A path as git reads it: relative to the directory it runs in.
ResolvedPath gitPath(const std::string& directory, const std::string& path,
                     const CommandScene& scene) {
  const std::string full = path.starts_with('/') ? path : directory + "/" + path;
  return resolvedPath(ShellWord{full, false, full}, scene);
}

// git reads the repository of the directory it runs in: in another tree
// (`cd ~/.password-store && git log -p`) that is a way to read its secrets,
// as -C outside the workspace would be.
bool runsInWorkspace(const GitStart& start, const CommandScene& scene) {
  if (!start.directory) return false;
  // A workspace root itself (the call's cwd is one): no symlink walk needed.
  const std::vector<std::string>& roots = scene.view.workspaceRoots();
  if (std::find(roots.begin(), roots.end(), *start.directory) != roots.end()) return true;
  return scene.view.insideWorkspace(gitPath(*start.directory, ".", scene));
}

}  // namespace toolguard::detail
