// `toolguard install|uninstall claude|gemini`: adds toolguard as the agent's
// tool-call hook in its settings file, or removes it (docs/agent-install.md).
#include <filesystem>
#include <iostream>

#include "cli/agent_hooks.hpp"
#include "cli/commands.hpp"
#include "cli/settings_file.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::ordered_json;

struct InstallOptions {
  std::string agent;
  bool user = false;
  bool project = false;
  std::string settings;  // explicit file instead of the scope's
  bool dry_run = false;
};

// The absolute path of the running toolguard binary: the hook must work
// without PATH (agents run hooks with their own environment).
std::string runningBinary() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty() || !exe.is_absolute()) {
    throw std::runtime_error("cannot find the path of the running toolguard (/proc/self/exe)");
  }
  const std::string path = exe.string();
  if (path.ends_with(" (deleted)")) {
    throw std::runtime_error("the running toolguard binary was deleted or replaced (" + path +
                             "); run install with the installed binary");
  }
  return path;
}

// The settings file the options name, and how to describe it.
std::pair<std::string, std::string> settingsFor(const InstallOptions& o, Agent agent) {
  if (!o.settings.empty()) {
    return {std::filesystem::absolute(o.settings).lexically_normal().string(), "given file"};
  }
  if (o.project) {
    std::error_code ec;
    std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (ec) throw std::runtime_error("cannot find the current directory: " + ec.message());
    return {settingsPath(agent, InstallScope::Project, "", cwd.string()), "project settings"};
  }
  const std::string home = homeDirectory();
  if (home.empty() || home == "/") {
    throw std::runtime_error("cannot find the home directory: set HOME, or use --project");
  }
  return {settingsPath(agent, InstallScope::User, home, ""), "user settings"};
}

// One line of JSON for the report.
std::string oneLine(const ordered_json& value) {
  return value.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

// Prints the changes, e.g. "  added hooks.PreToolUse[0]: {...}".
void printChanges(const std::vector<HookChange>& changes, bool dry_run) {
  for (const HookChange& c : changes) {
    switch (c.kind) {
      case HookChange::Kind::Added:
        std::cout << (dry_run ? "  would add " : "  added ") << c.where << ": " << oneLine(c.entry)
                  << "\n";
        break;
      case HookChange::Kind::Updated:
        std::cout << (dry_run ? "  would update " : "  updated ") << c.where << ": command "
                  << oneLine(c.previous_command) << " -> " << oneLine(c.entry["command"]) << "\n";
        break;
      case HookChange::Kind::Removed:
        std::cout << (dry_run ? "  would remove " : "  removed ") << c.where << ": "
                  << oneLine(c.entry) << "\n";
        break;
    }
  }
}

// Notes on what else decides whether the hook runs.
// True when `binary` sits in a CMake build tree (a CMakeCache.txt in its
// directory or one above): rebuilding or removing the tree breaks the hook.
bool inBuildTree(const std::filesystem::path& binary) {
  std::error_code ec;
  for (std::filesystem::path dir = binary.parent_path(); !dir.empty() && dir != dir.root_path();
       dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / "CMakeCache.txt", ec)) return true;
  }
  return false;
}

void printNotes(const InstallOptions& o, Agent agent, const ordered_json& settings) {
  for (const std::string& warning : hookWarnings(settings, agent)) {
    std::cerr << "toolguard: warning: " << warning << "\n";
  }
  if (const std::string binary = runningBinary(); inBuildTree(binary)) {
    std::cerr << "toolguard: warning: " << binary
              << " is in a build tree; the hook blocks every tool call once the tree is "
                 "rebuilt or removed. Install toolguard (scripts/install.sh) and run "
                 "`toolguard install` again with the installed binary\n";
  }
  const bool claude = agent == Agent::Claude;
  std::cout << "  next: restart " << (claude ? "Claude Code" : "Gemini CLI")
            << " (it reads its hooks when it starts)\n"
            << "  next: keep the rules you already gave it: toolguard policy import --from "
            << (claude ? "claude ~/.claude/settings.json" : "gemini ~/.gemini/policies/FILE.toml")
            << " -o ~/.config/toolguard/" << (claude ? "claude" : "gemini") << ".yaml\n"
            << "  next: what toolguard remembers a person approved: toolguard approvals list\n";
  if (!o.project) return;
  if (agent == Agent::Claude) {
    std::cout << "  note: .claude/settings.json is usually committed; the hook's command holds "
                 "this machine's path to toolguard\n";
  } else {
    std::cout << "  note: Gemini CLI reads a project's .gemini/settings.json only when the "
                 "folder is trusted\n";
  }
}

// Install or uninstall as the options say; the exit code.
int runInstall(const InstallOptions& o, bool install) {
  const Agent agent = *agentNamed(o.agent);
  const AgentInfo& info = agentInfo(agent);
  const auto [path, scope] = settingsFor(o, agent);
  const std::string command = hookCommand(agent, runningBinary());
  SettingsFile file = readSettingsFile(path);
  ordered_json settings = file.content;
  std::vector<HookChange> changes;
  try {
    changes =
        install ? installHook(settings, agent, command) : uninstallHook(settings, agent, command);
  } catch (const HookShapeError& e) {
    throw SettingsFileError(path + ": " + e.what() + "; toolguard changed nothing");
  }
  const std::string where = path + " (" + scope + ")";
  if (changes.empty()) {
    if (install) {
      std::cout << "toolguard: the " << info.display_name << " hook is already installed in "
                << where << "; nothing changed\n";
      printNotes(o, agent, settings);
    } else {
      std::cout << "toolguard: no toolguard hook in " << where << "; nothing changed\n";
    }
    return kExitOk;
  }
  std::cout << "toolguard: " << (o.dry_run ? "would " : "")
            << (install ? (o.dry_run ? "install" : "installed")
                        : (o.dry_run ? "remove" : "removed"))
            << " the " << info.display_name << " hook " << (install ? "in " : "from ") << where
            << "\n";
  printChanges(changes, o.dry_run);
  const bool empty = !install && settings.empty();
  if (o.dry_run) {
    if (!file.exists) std::cout << "  would create the file\n";
    if (empty) std::cout << "  would remove the file: nothing else is in it\n";
    std::cout << "  dry run: nothing was written\n";
    return kExitOk;
  }
  if (file.exists) std::cout << "  backup: " << backupSettingsFile(file) << "\n";
  if (empty) {
    if (removeSettingsFile(file)) {
      std::cout << "  removed the file: nothing else was in it\n";
    } else {
      std::cout << "  left the file as {}: it is a symlink\n";
    }
  } else {
    writeSettingsFile(file, settings);
    if (!file.exists) std::cout << "  created the file\n";
    if (file.symlink) std::cout << "  wrote through the symlink to " << file.target << "\n";
  }
  if (install) printNotes(o, agent, settings);
  return kExitOk;
}

// Adds `install` or `uninstall` with its options.
void addCommand(CLI::App& app, int& exit_code, bool install) {
  auto options = std::make_shared<InstallOptions>();
  CLI::App* cmd = app.add_subcommand(
      install ? "install" : "uninstall",
      install ? "Add toolguard as the agent's tool-call hook in its settings.json "
                "(docs/agent-install.md)"
              : "Remove toolguard's hook from the agent's settings.json, keeping the rest");
  cmd->footer(install ? "Claude Code: hooks.PreToolUse; Gemini CLI: hooks.BeforeTool. The hook "
                        "runs this toolguard binary by its absolute path. The file is backed up "
                        "first (FILE.toolguard-backup-TIME); installing twice changes nothing."
                      : "Removes every handler running `.../toolguard check --format "
                        "claude|gemini-hook`, and what is left empty by that. The file is "
                        "backed up first; a file left as {} is removed.");
  cmd->add_option("agent", options->agent, "claude (Claude Code) or gemini (Gemini CLI)")
      ->required()
      ->check(CLI::IsMember({"claude", "gemini"}));
  CLI::Option* user = cmd->add_flag(
      "--user", options->user,
      "The user's settings: ~/.claude/settings.json or ~/.gemini/settings.json (the default)");
  CLI::Option* project = cmd->add_flag("--project", options->project,
                                       "The project's settings: .claude/settings.json or "
                                       ".gemini/settings.json in the current directory");
  CLI::Option* settings =
      cmd->add_option("--settings", options->settings,
                      "Edit this settings file instead (e.g. .claude/settings.local.json)");
  user->excludes(project);
  settings->excludes(user)->excludes(project);
  cmd->add_flag("--dry-run", options->dry_run, "Print what would change, write nothing");
  cmd->callback([options, &exit_code, install] {
    try {
      exit_code = runInstall(*options, install);
    } catch (const std::exception& e) {
      std::cerr << "toolguard: " << e.what() << "\n";
      exit_code = kExitError;
    }
  });
}

}  // namespace

void addInstallCommands(CLI::App& app, int& exit_code) {
  addCommand(app, exit_code, true);
  addCommand(app, exit_code, false);
}

}  // namespace toolguard::cli
