// `toolguard install|uninstall claude|gemini`: adds toolguard as the agent's
// tool-call hook in its settings file, or removes it (docs/agent-install.md).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/agent_hooks.hpp"
#include "cli/commands.hpp"
#include "cli/install_choices.hpp"
#include "cli/running_binary.hpp"
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
  std::string mode;                 // Claude Code: decide | tighten ("" : keep, ask or tighten)
  std::string agent_asks;           // Gemini CLI: yes | no | auto
  std::string defer_headless_asks;  // Claude Code: yes | no ("": keep, else no)
  std::string sandbox;              // yes | no ("": keep, else no)
};

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
        std::cout << (dry_run ? "  would update " : "  updated ") << c.where << ": "
                  << oneLine(c.previous) << " -> " << oneLine(c.entry) << "\n";
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

// A yes/no choice of the hook's: `given` (yes | no), else whether the
// installed hook has `flag`, else no. Prints the sentence for the choice and
// how it was made.
bool chooseHookFlag(const std::string& given, const char* flag,
                    const std::optional<std::vector<std::string>>& installed,
                    const std::string& if_yes, const std::string& if_no) {
  const bool kept =
      installed && std::find(installed->begin(), installed->end(), flag) != installed->end();
  const bool yes = given.empty() ? kept : given == "yes";
  std::cout << "toolguard: " << (yes ? if_yes : if_no) << " ("
            << (given.empty() ? (kept ? "kept from the installed hook" : "the default")
                              : std::string("given with ") + flag)
            << ")\n";
  return yes;
}

// How the hook answers (Claude Code's mode, Gemini CLI's ask, the sandbox), printed.
HookOptions chooseHookOptions(const InstallOptions& o, Agent agent,
                              const nlohmann::ordered_json& settings) {
  HookOptions hook;
  const std::optional<std::vector<std::string>> installed = installedHookWords(settings, agent);
  if (agent == Agent::Claude) {
    const bool interactive = !o.dry_run && ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
    ClaudeModeChoice choice = chooseClaudeMode(o.mode, settings, interactive);
    hook.claude_mode = choice.mode;
    std::cout << "toolguard: Claude Code mode " << claudeModeSentence(choice.mode) << " ("
              << choice.how << ")\n";
    hook.claude_defers = chooseHookFlag(
        o.defer_headless_asks, "--defer-headless-asks", installed,
        "in a non-interactive run (claude -p, the Agent SDK) an ask is sent as defer (the run "
        "stops; the program that started it asks and resumes)",
        "in a non-interactive run (claude -p, the Agent SDK) an ask is sent as ask (Claude "
        "Code's own handling of a prompt it cannot show)");
  } else {
    GeminiAsksChoice choice = chooseGeminiAsks(o.agent_asks);
    hook.gemini_asks = choice.asks;
    std::cout << "toolguard: an ask is sent to Gemini CLI as "
              << (choice.asks ? "ask (it shows its confirmation prompt)"
                              : "a deny naming `toolguard approvals add`")
              << ": " << choice.how << "\n";
  }
  hook.sandbox = chooseHookFlag(
      o.sandbox, "--sandbox", installed,
      "an allowed shell command runs under `toolguard sandbox` (the agent shows it wrapped; "
      "docs/sandbox.md)",
      "allowed shell commands run as the agent runs them (no sandbox)");
  if (hook.sandbox && agent == Agent::Claude && hook.claude_mode == ClaudeMode::Tighten) {
    throw std::runtime_error(
        "--sandbox yes needs --mode decide: in tighten mode toolguard's allow is no opinion, "
        "which cannot rewrite the command");
  }
  return hook;
}

// Writes the settings after an install: the backup holds the file as it
// was before toolguard's hook went in (kept when the hook was already there).
void writeInstalled(const SettingsFile& file, const ordered_json& settings, bool hook_was_there) {
  if (file.exists) {
    if (hook_was_there && readBackup(file)) {
      std::cout << "  backup kept: " << backupPath(file) << " (the file before toolguard's hook)\n";
    } else {
      std::cout << "  backup: " << saveBackup(file) << "\n";
    }
  } else if (readBackup(file)) {
    removeBackup(file);  // of a file that is gone: it describes nothing now
  }
  writeSettingsFile(file, settings);
  if (!file.exists) std::cout << "  created the file\n";
  if (file.symlink) std::cout << "  wrote through the symlink to " << file.target << "\n";
}

// Writes the settings after an uninstall: the file's bytes from before the
// install when nothing else changed since (the backup then goes), else the
// edited settings with the file before uninstall as the one backup.
void writeUninstalled(const SettingsFile& file, const ordered_json& settings, bool dry_run) {
  const std::optional<std::string> backup = readBackup(file);
  bool exact = false;
  if (backup && backup->find_first_not_of(" \t\r\n") == std::string::npos) {
    exact = settings.empty();  // a blank file reads as {}
  } else if (backup) {
    // Only bytes that mean exactly the settings uninstall computed are put
    // back: whatever the backup holds, the result is the same settings.
    const ordered_json before = ordered_json::parse(*backup, nullptr, false);
    exact = !before.is_discarded() && before == settings;
  }
  const bool empty = settings.empty();
  if (dry_run) {
    if (exact) {
      std::cout << "  would restore the file byte for byte from " << backupPath(file)
                << " and remove the backup\n";
    } else if (empty) {
      std::cout << "  would remove the file: nothing else is in it\n";
    }
    std::cout << "  dry run: nothing was written\n";
    return;
  }
  if (exact) {
    writeSettingsBytes(file, *backup);
    removeBackup(file);
    std::cout << "  restored the file byte for byte from " << backupPath(file)
              << " (the backup is removed)\n";
    return;
  }
  if (backup || !empty) std::cout << "  backup: " << saveBackup(file) << "\n";
  if (empty) {
    if (removeSettingsFile(file)) {
      std::cout << "  removed the file: nothing else was in it\n";
    } else {
      std::cout << "  left the file as {}: it is a symlink\n";
    }
    return;
  }
  writeSettingsFile(file, settings);
  if (file.symlink) std::cout << "  wrote through the symlink to " << file.target << "\n";
}

// Install or uninstall as the options say; the exit code.
int runInstall(const InstallOptions& o, bool install) {
  const Agent agent = *agentNamed(o.agent);
  const AgentInfo& info = agentInfo(agent);
  if (!o.mode.empty() && (agent != Agent::Claude || !install)) {
    throw std::runtime_error("--mode is for `install claude`");
  }
  if (!o.agent_asks.empty() && (agent != Agent::Gemini || !install)) {
    throw std::runtime_error("--agent-asks is for `install gemini`");
  }
  if (!o.sandbox.empty() && !install) throw std::runtime_error("--sandbox is for `install`");
  if (!o.defer_headless_asks.empty() && (agent != Agent::Claude || !install)) {
    throw std::runtime_error("--defer-headless-asks is for `install claude`");
  }
  const auto [path, scope] = settingsFor(o, agent);
  SettingsFile file = readSettingsFile(path);
  ordered_json settings = file.content;
  const HookOptions hook = install ? chooseHookOptions(o, agent, settings) : HookOptions{};
  const std::string command = hookCommand(agent, runningBinary(), hook);
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
  if (!install) {
    writeUninstalled(file, settings, o.dry_run);
    return kExitOk;
  }
  if (o.dry_run) {
    if (!file.exists) std::cout << "  would create the file\n";
    std::cout << "  dry run: nothing was written\n";
    return kExitOk;
  }
  const bool hook_was_there = changes.front().kind == HookChange::Kind::Updated;
  writeInstalled(file, settings, hook_was_there);
  printNotes(o, agent, settings);
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
                        "runs this toolguard binary by its absolute path. The file as it was "
                        "before the hook is kept as FILE.toolguard-backup (one backup, replaced "
                        "by the next install); installing twice changes nothing."
                      : "Removes every handler running `.../toolguard check --format "
                        "claude|gemini-hook`, and what is left empty by that. When nothing else "
                        "changed since install, the file is restored byte for byte from "
                        "FILE.toolguard-backup and the backup removed; else the file before "
                        "uninstall becomes the backup. A file left as {} is removed.");
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
  if (install) {
    cmd->add_option("--mode", options->mode,
                    "Claude Code: decide (toolguard's allow skips Claude Code's prompt) or "
                    "tighten (toolguard's allow leaves the call to Claude Code's own "
                    "permissions). Without it: the installed hook's mode, else asked on a "
                    "terminal, else tighten")
        ->check(CLI::IsMember({"decide", "tighten"}));
    cmd->add_option("--agent-asks", options->agent_asks,
                    "Gemini CLI: yes (send an ask as ask: Gemini CLI 0.36+), no (send it as a "
                    "deny), auto (the default: by `gemini --version`)")
        ->check(CLI::IsMember({"yes", "no", "auto"}));
    cmd->add_option("--sandbox", options->sandbox,
                    "yes: an allowed shell command (Claude Code's Bash, Gemini CLI's "
                    "run_shell_command) is rewritten to run under `toolguard sandbox` "
                    "(Claude Code: needs --mode decide); no: it runs as the agent runs it. "
                    "Without it: the installed hook's choice, else no")
        ->check(CLI::IsMember({"yes", "no"}));
    cmd->add_option("--defer-headless-asks", options->defer_headless_asks,
                    "Claude Code 2.1.89+: yes (in a non-interactive run, claude -p or the Agent "
                    "SDK, an ask is answered defer: the run stops so the program that started "
                    "it can ask its user and resume it) or no. Without it: the installed hook's "
                    "choice, else no")
        ->check(CLI::IsMember({"yes", "no"}));
  }
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
