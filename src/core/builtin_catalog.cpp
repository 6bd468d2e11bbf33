// The built-in tool catalog: the tools of common coding agents and of the MCP
// reference filesystem server, with their kind, metadata and arguments.
#include <initializer_list>

#include "toolguard/tool_catalog.hpp"

namespace toolguard {
namespace {

struct Entry {
  const char* name;
  ToolKind kind;
  const char* category;
  SideEffect side_effect;
  RiskLevel risk;
  ToolPolicy policy;
  const char* command_arg;
  std::initializer_list<const char*> path_args;
  const char* description;
};

constexpr auto kShell = ToolKind::Shell;
constexpr auto kRead = ToolKind::FileRead;
constexpr auto kWrite = ToolKind::FileWrite;
constexpr auto kSearch = ToolKind::FileSearch;
constexpr auto kNet = ToolKind::Network;

// Path-carrying argument names differ between agents; every name a tool is
// known to use is listed so rules see the path whatever it is called. The file
// name globs of search tools (Grep's `glob`, Glob's `pattern`) count as paths
// too, so `glob: .env` or `pattern: /etc/**` meets the same rules as a read.
#define FILE_PATHS "file_path", "path", "absolute_path", "target_file", "notebook_path"

// clang-format off
const Entry kEntries[] = {
    // Claude Code
    {"Bash", kShell, "shell", SideEffect::Irreversible, RiskLevel::High, ToolPolicy::Confirm,
     "command", {}, "Runs a shell command (Claude Code)."},
    {"Read", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {FILE_PATHS}, "Reads a file (Claude Code)."},
    {"Write", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium, ToolPolicy::Allow,
     "", {FILE_PATHS}, "Writes a file (Claude Code)."},
    {"Edit", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium, ToolPolicy::Allow, "",
     {FILE_PATHS}, "Edits a file (Claude Code)."},
    {"MultiEdit", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Several edits to one file (Claude Code)."},
    {"NotebookEdit", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Edits a Jupyter notebook cell (Claude Code)."},
    {"Glob", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {"path", "pattern"}, "Finds files by name pattern (Claude Code)."},
    {"Grep", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {"path", "glob"}, "Searches file contents (Claude Code)."},
    {"LS", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {"path"}, "Lists a directory (Claude Code)."},
    {"WebFetch", kNet, "network", SideEffect::NetworkRead, RiskLevel::Medium, ToolPolicy::Confirm,
     "", {}, "Fetches a URL (Claude Code)."},
    {"WebSearch", kNet, "network", SideEffect::NetworkRead, RiskLevel::Low, ToolPolicy::Confirm, "",
     {}, "Searches the web (Claude Code)."},
    {"Task", ToolKind::Agent, "agent", SideEffect::None, RiskLevel::Low, ToolPolicy::Allow, "", {},
     "Starts a sub-agent whose own tool calls are guarded (Claude Code)."},
    {"TodoWrite", ToolKind::Other, "planning", SideEffect::None, RiskLevel::Low, ToolPolicy::Allow,
     "", {}, "Updates the agent's to-do list (Claude Code)."},
    {"BashOutput", kRead, "shell", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "", {},
     "Reads output of a background shell (Claude Code)."},
    {"KillShell", ToolKind::Other, "shell", SideEffect::LocalWrite, RiskLevel::Low,
     ToolPolicy::Allow, "", {}, "Stops a background shell (Claude Code)."},
    // Gemini CLI
    {"run_shell_command", kShell, "shell", SideEffect::Irreversible, RiskLevel::High,
     ToolPolicy::Confirm, "command", {"directory", "dir_path"},
     "Runs a shell command (Gemini CLI)."},
    {"read_file", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {FILE_PATHS}, "Reads a file (Gemini CLI, Cline, Cursor, MCP filesystem server)."},
    {"read_many_files", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"paths", "include"}, "Reads several files (Gemini CLI)."},
    {"write_file", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Writes a file (Gemini CLI, MCP filesystem server)."},
    {"replace", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium, ToolPolicy::Allow,
     "", {FILE_PATHS}, "Replaces text in a file (Gemini CLI)."},
    {"list_directory", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path", "dir_path"}, "Lists a directory (Gemini CLI, MCP)."},
    {"glob", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {"path", "dir_path", "pattern"}, "Finds files by pattern (Gemini CLI)."},
    {"search_file_content", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path", "dir_path", "include"},
     "Searches file contents (Gemini CLI)."},
    {"web_fetch", kNet, "network", SideEffect::NetworkRead, RiskLevel::Medium, ToolPolicy::Confirm,
     "", {}, "Fetches URLs named in a prompt (Gemini CLI)."},
    {"google_web_search", kNet, "network", SideEffect::NetworkRead, RiskLevel::Low,
     ToolPolicy::Confirm, "", {}, "Searches the web (Gemini CLI)."},
    {"save_memory", kWrite, "memory", SideEffect::LocalWrite, RiskLevel::Low, ToolPolicy::Confirm,
     "", {}, "Saves a fact to the agent's memory file (Gemini CLI)."},
    // Codex
    {"shell", kShell, "shell", SideEffect::Irreversible, RiskLevel::High, ToolPolicy::Confirm,
     "command", {"workdir"}, "Runs a command given as a list of words (Codex)."},
    {"exec_command", kShell, "shell", SideEffect::Irreversible, RiskLevel::High,
     ToolPolicy::Confirm, "cmd", {"workdir"}, "Runs a shell command (Codex)."},
    {"apply_patch", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Confirm, "", {}, "Applies a patch to files (Codex)."},
    // Cline / Roo Code, Cursor and generic agent tools
    {"execute_command", kShell, "shell", SideEffect::Irreversible, RiskLevel::High,
     ToolPolicy::Confirm, "command", {"cwd"}, "Runs a shell command (Cline, generic)."},
    {"run_terminal_cmd", kShell, "shell", SideEffect::Irreversible, RiskLevel::High,
     ToolPolicy::Confirm, "command", {}, "Runs a terminal command (Cursor)."},
    {"bash", kShell, "shell", SideEffect::Irreversible, RiskLevel::High, ToolPolicy::Confirm,
     "command", {}, "Runs a shell command (generic)."},
    {"write_to_file", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Writes a file (Cline)."},
    {"replace_in_file", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Edits a file by diff (Cline)."},
    {"edit_file", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Edits a file (Cursor, MCP filesystem server)."},
    {"create_file", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {FILE_PATHS}, "Creates a file (generic)."},
    {"delete_file", kWrite, "filesystem", SideEffect::Irreversible, RiskLevel::High,
     ToolPolicy::Confirm, "", {FILE_PATHS}, "Deletes a file (Cursor, generic)."},
    {"list_files", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow,
     "", {"path"}, "Lists files (Cline)."},
    {"search_files", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path"}, "Searches files (Cline, MCP filesystem server)."},
    {"list_dir", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow, "",
     {"relative_workspace_path", "path"}, "Lists a directory (Cursor)."},
    {"grep_search", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow,
     "", {"path"}, "Searches file contents (Cursor)."},
    {"file_search", kSearch, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow,
     "", {}, "Finds files by fuzzy name (Cursor)."},
    {"fetch", kNet, "network", SideEffect::NetworkRead, RiskLevel::Medium, ToolPolicy::Confirm, "",
     {}, "Fetches a URL (MCP fetch server, generic)."},
    {"http_request", kNet, "network", SideEffect::NetworkWrite, RiskLevel::Medium,
     ToolPolicy::Confirm, "", {}, "Sends an HTTP request with any method (generic)."},
    // MCP reference filesystem server (unprefixed names)
    {"read_text_file", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path"}, "Reads a text file (MCP filesystem server)."},
    {"read_media_file", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path"}, "Reads an image or audio file (MCP filesystem server)."},
    {"read_multiple_files", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"paths"}, "Reads several files (MCP filesystem server)."},
    {"create_directory", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path"}, "Creates a directory (MCP filesystem server)."},
    {"list_directory_with_sizes", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path"}, "Lists a directory with sizes (MCP filesystem server)."},
    {"directory_tree", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low,
     ToolPolicy::Allow, "", {"path"}, "Shows a directory tree (MCP filesystem server)."},
    {"move_file", kWrite, "filesystem", SideEffect::LocalWrite, RiskLevel::Medium,
     ToolPolicy::Allow, "", {"source", "destination"}, "Moves a file (MCP filesystem server)."},
    {"get_file_info", kRead, "filesystem", SideEffect::LocalRead, RiskLevel::Low, ToolPolicy::Allow,
     "", {"path"}, "Reads file metadata (MCP filesystem server)."},
    {"list_allowed_directories", kRead, "filesystem", SideEffect::None, RiskLevel::Low,
     ToolPolicy::Allow, "", {}, "Lists the server's allowed directories (MCP filesystem server)."},
};
// clang-format on

#undef FILE_PATHS

ToolInfo toInfo(const Entry& e) {
  ToolInfo info;
  info.name = e.name;
  info.description = e.description;
  info.kind = e.kind;
  info.metadata.category = e.category;
  info.metadata.side_effect = e.side_effect;
  info.metadata.risk = e.risk;
  info.metadata.read_only = e.side_effect == SideEffect::None ||
                            e.side_effect == SideEffect::LocalRead ||
                            e.side_effect == SideEffect::NetworkRead;
  info.metadata.idempotent = info.metadata.read_only;
  info.metadata.default_approval =
      e.policy == ToolPolicy::Allow ? DefaultApproval::Never : DefaultApproval::Always;
  info.policy = e.policy;
  info.command_arg = e.command_arg;
  for (const char* p : e.path_args) info.path_args.emplace_back(p);
  return info;
}

}  // namespace

const ToolCatalog& ToolCatalog::builtin() {
  static const ToolCatalog catalog = [] {
    ToolCatalog c;
    for (const Entry& e : kEntries) c.add(toInfo(e));
    return c;
  }();
  return catalog;
}

}  // namespace toolguard
