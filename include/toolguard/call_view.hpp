#pragma once
// A tool call parsed once for the rules: the call, what its tool is, and the
// command and paths it carries.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/path_access.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/shell.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard {

namespace detail {
struct CommandCwds;
}

/// The view every rule looks at. Derived data (command text, normalized paths)
/// is computed on first use and kept; a view belongs to one decision and is not
/// shared between threads.
class CallView {
 public:
  /// `tool` describes call.tool (from the catalog). `paths` says how path
  /// arguments are resolved; `extra_roots` (may be null) are workspace roots
  /// from the policy. Everything passed must outlive the view.
  CallView(const ToolCall& call, const ToolInfo& tool, PathOptions paths = {},
           const std::vector<std::string>* extra_roots = nullptr);

  const ToolCall& call() const { return call_; }
  const ToolInfo& tool() const { return tool_; }
  const std::string& toolName() const { return call_.tool; }

  /// The shell command of a shell tool (its command argument; a list of words
  /// is joined with shell quoting), or nullopt when there is none.
  const std::optional<std::string>& command() const;

  /// The raw strings of the tool's path arguments, in argument order (empty
  /// strings are left out); paths()[i] is rawPaths()[i] made absolute.
  const std::vector<std::string>& rawPaths() const;

  /// Where each raw path came from, for messages: "file_path", "paths[2]".
  const std::vector<std::string>& pathFields() const;

  /// rawPaths() made absolute against the call's cwd, with "~" expanded and
  /// "." and ".." removed (lexically).
  const std::vector<std::string>& paths() const;

  /// rawPaths() checked and resolved (resolvePath): symlinks followed, case
  /// sensitivity known. Paths that failed the check are left out; see pathError().
  const std::vector<ResolvedPath>& resolvedPaths() const;

  /// The first path argument resolvePath refused, as "FIELD: why"; nullopt
  /// when all are fine. Rules must not allow a call that has one.
  const std::optional<std::string>& pathError() const;

  /// The workspace roots: the call's cwd, its extra roots and the policy's,
  /// normalized lexically.
  const std::vector<std::string>& workspaceRoots() const;

  /// workspaceRoots() with symlinks followed, compared against resolvedPaths().
  const std::vector<ResolvedPath>& resolvedWorkspaceRoots() const;

  /// The call's cwd normalized, then (when it differs) with its symlinks
  /// followed; empty when the call has no cwd. Computed once per view, for
  /// path globs relative to the cwd (`./src/**`).
  const std::vector<std::string>& cwdForms() const;

  /// The paths the call's own arguments read or write: each path argument of
  /// a tool that is not a shell tool, as a Write for a file-write tool (or a
  /// tool that is not read-only), else as a Read. A search tool's directory
  /// is a Tree; its file glob (`glob`, `include`, Glob's `pattern`) a Pattern
  /// under that directory. Empty for shell tools: their commands' paths are
  /// found command by command, and their path arguments say where the
  /// commands run (programCwd).
  const std::vector<PathAccess>& pathAccesses() const;

  /// True when what the call does depends on its cwd: a shell tool's command,
  /// a relative path argument (not `~/...`), or a search tool that walks the
  /// cwd (no directory argument, and a relative file glob or none). An exact
  /// approval of such a call is bound to the cwd (see approvalKey).
  bool dependsOnCwd() const;

  /// The directory a shell tool's commands start in: its directory argument
  /// (`directory`, `workdir`, ...) against the call's cwd, else the cwd.
  const std::string& programCwd() const;

  /// True when a resolved path lies in one of the resolved workspace roots.
  bool insideWorkspace(const ResolvedPath& path) const;

  /// Checks and resolves another path the call touches (e.g. a shell
  /// command's target) the same way as the path arguments, against `cwd`.
  PathValidation resolve(std::string_view path, std::string_view cwd) const;

  /// The home directory, looked up once per view.
  const std::string& home() const;

  /// The shell program of a shell tool's command, parsed once; nullptr when
  /// the tool is not a shell tool or the call carries no command.
  const ShellProgram* shellProgram() const;

  /// Internal, for the shell rules: the memo of the directory each command of
  /// shellProgram() starts in (see detail::effectiveCwd), so that the `cd`s
  /// before a command are read once per program, not once per path word.
  detail::CommandCwds& commandCwds() const;

 private:
  void collectPaths() const;
  void resolvePaths() const;

  const ToolCall& call_;
  const ToolInfo& tool_;
  mutable PathOptions path_options_;  // home filled in on first use
  const std::vector<std::string>* extra_roots_;
  mutable bool command_done_ = false;
  mutable std::optional<std::string> command_;
  mutable bool paths_done_ = false;
  mutable std::vector<std::string> raw_paths_;
  mutable std::vector<std::string> paths_;
  mutable std::vector<std::string> path_fields_;
  mutable bool resolved_done_ = false;
  mutable std::vector<ResolvedPath> resolved_paths_;
  mutable std::vector<int> resolved_of_raw_;  // index into resolved_paths_, -1: refused
  mutable std::optional<std::string> path_error_;
  mutable std::vector<std::string> roots_;
  mutable bool resolved_roots_done_ = false;
  mutable std::vector<ResolvedPath> resolved_roots_;
  mutable bool cwd_forms_done_ = false;
  mutable std::vector<std::string> cwd_forms_;
  mutable std::optional<std::string> home_;
  mutable bool accesses_done_ = false;
  mutable std::vector<PathAccess> accesses_;
  mutable std::optional<std::string> program_cwd_;
  mutable bool program_done_ = false;
  mutable std::shared_ptr<const ShellProgram> program_;
  mutable std::shared_ptr<detail::CommandCwds> command_cwds_;
};

}  // namespace toolguard
