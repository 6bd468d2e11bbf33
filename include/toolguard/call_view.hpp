#pragma once
// A tool call parsed once for the rules: the call, what its tool is, and the
// command and paths it carries.

#include <optional>
#include <string>
#include <vector>

#include "toolguard/shell.hpp"
#include "toolguard/tool_call.hpp"
#include "toolguard/tool_info.hpp"

namespace toolguard {

/// The view every rule looks at. Derived data (command text, normalized paths)
/// is computed on first use and kept; a view belongs to one decision and is not
/// shared between threads.
class CallView {
 public:
  /// `tool` describes call.tool (from the catalog). Both must outlive the view.
  CallView(const ToolCall& call, const ToolInfo& tool);

  const ToolCall& call() const { return call_; }
  const ToolInfo& tool() const { return tool_; }
  const std::string& toolName() const { return call_.tool; }

  /// The shell command of a shell tool (its command argument; a list of words
  /// is joined with shell quoting), or nullopt when there is none.
  const std::optional<std::string>& command() const;

  /// The raw strings of the tool's path arguments, in argument order (empty
  /// strings are left out); paths()[i] is rawPaths()[i] made absolute.
  const std::vector<std::string>& rawPaths() const;

  /// rawPaths() made absolute against the call's cwd, with "~" expanded and
  /// "." and ".." removed (lexically).
  const std::vector<std::string>& paths() const;

  /// The workspace roots: the call's cwd and any extra roots, normalized.
  const std::vector<std::string>& workspaceRoots() const;

  /// The home directory, looked up once per view.
  const std::string& home() const;

  /// The shell program of a shell tool's command, parsed once; nullptr when
  /// the tool is not a shell tool or the call carries no command.
  const ShellProgram* shellProgram() const;

 private:
  const ToolCall& call_;
  const ToolInfo& tool_;
  mutable bool command_done_ = false;
  mutable std::optional<std::string> command_;
  mutable bool paths_done_ = false;
  mutable std::vector<std::string> raw_paths_;
  mutable std::vector<std::string> paths_;
  mutable std::vector<std::string> roots_;
  mutable std::optional<std::string> home_;
  mutable bool program_done_ = false;
  mutable std::optional<ShellProgram> program_;
};

}  // namespace toolguard
