#pragma once
// The demo's tools: small, real implementations an agent could be given.
//
// A tool is a ToolInfo (what toolguard and the model know about it) plus a
// ToolFunction (what runs once the guard allowed the call). The ToolInfo is
// what makes the guard's checks work:
//  - `kind` (FileRead, FileWrite, Shell, ...) selects the built-in rules
//    that apply, whatever the tool is called;
//  - `path_args` names the arguments holding paths, so they are resolved
//    against the call's cwd and checked (outside the workspace, system
//    files, private keys, ...); `command_arg` names a shell command;
//  - `input_schema` is checked before the tool runs and shown to the model.
//
// Nothing here does anything dangerous: file tools work inside the demo's
// workspace (the guard sees to that), and the tools that would run a
// command or deploy only say what they would do.

#include <filesystem>
#include <optional>

#include "toolguard/tool_registry.hpp"

namespace demo {

/// A tool ready to register: its description and its implementation.
struct DemoTool {
  toolguard::ToolInfo info;
  toolguard::ToolFunction function;
};

/// Registers `tool` with `policy` as its own policy; nullopt leaves it unset,
/// so the registry's setDefaultPolicy() (as it is at this moment) applies.
void addTool(toolguard::ToolRegistry& registry, DemoTool tool,
             std::optional<toolguard::ToolPolicy> policy = std::nullopt);

/// Creates (or refreshes) the demo workspace: README.md, config.txt (holding
/// a fake AWS key id), app.log (long), src/main.c. Returns its canonical path,
/// which the demo uses as every call's cwd.
std::filesystem::path prepareWorkspace(const std::filesystem::path& dir);

/// read_file {"path"}: the file's text. FileRead, path_args ["path"].
DemoTool readFileTool();
/// write_file {"path","content"}: writes the file. FileWrite, path_args ["path"].
DemoTool writeFileTool();
/// list_dir {"path"?}: the names in a directory. FileRead, path_args ["path"].
DemoTool listDirTool();
/// read_log {}: the workspace's app.log, which is long (for the output cap).
DemoTool readLogTool();
/// drop_database {"name"}: would drop a database. Never meant to run.
DemoTool dropDatabaseTool();
/// git_log {"branch"}: says which `git log` it would run with the branch
/// pasted into the command line (see the validateArgs hook in mode 2).
DemoTool gitLogTool();
/// run_command {"command"}: a shell tool (kind Shell, command_arg "command")
/// that only echoes what it would run.
DemoTool runCommandTool();
/// deploy {"target": "staging"|"production"}: would deploy.
DemoTool deployTool();

}  // namespace demo
