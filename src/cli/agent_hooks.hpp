#pragma once
// toolguard's hook entry in an agent's settings (Claude Code's PreToolUse,
// Gemini CLI's BeforeTool): where the settings live, what the entry is, and
// adding it to or removing it from parsed settings. See docs/agent-install.md.

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace toolguard::cli {

/// The agents `toolguard install` knows.
enum class Agent { Claude, Gemini };

/// Which settings file: the user's (in HOME) or the project's (in a directory).
enum class InstallScope { User, Project };

/// What toolguard needs to know about one agent.
struct AgentInfo {
  std::string id;            ///< "claude", "gemini": the command-line name
  std::string display_name;  ///< "Claude Code", "Gemini CLI"
  std::string directory;     ///< ".claude", ".gemini": holds settings.json
  std::string event;         ///< "PreToolUse", "BeforeTool": the key under "hooks"
  std::string format;        ///< the `check --format` the hook runs
  /// "PostToolUse", "AfterTool": the hook that sees each result (the same
  /// command judges it, docs/sessions.md).
  std::string result_event;
};

/// The description of `agent`.
const AgentInfo& agentInfo(Agent agent);

/// The agent named `id` on the command line ("claude", "gemini").
std::optional<Agent> agentNamed(const std::string& id);

/// The settings file of `agent` in `scope`: `<home>/.claude/settings.json` or
/// `<project>/.claude/settings.json` (likewise `.gemini`).
std::string settingsPath(Agent agent, InstallScope scope, const std::string& home,
                         const std::string& project);

/// What toolguard's allow means to Claude Code: Decide skips Claude Code's
/// own prompt; Tighten is no opinion, so Claude Code's permissions decide
/// (toolguard's deny and ask apply in both).
enum class ClaudeMode { Decide, Tighten };

/// "decide" or "tighten" (check's --mode).
const char* claudeModeName(ClaudeMode mode);

/// How the installed hook answers, beyond judging each call.
struct HookOptions {
  ClaudeMode claude_mode = ClaudeMode::Tighten;  ///< Claude Code
  bool gemini_asks = false;  ///< Gemini CLI 0.36+: an ask is sent as ask, not deny
  /// Claude Code 2.1.89+: in a non-interactive run an ask is sent as defer.
  bool claude_defers = false;
  /// An allowed shell call runs under `toolguard sandbox` (check --sandbox).
  bool sandbox = false;
};

/// Claude Code's timeout for the hook, in seconds (its `timeout`), and the
/// deadline within which the hook's check answers: below the timeout, so
/// Claude Code never kills a check that is still deciding.
constexpr int kClaudeHookTimeoutS = 600;
constexpr int kClaudeCheckDeadlineS = kClaudeHookTimeoutS - 10;
/// Gemini CLI's timeout for the hook (milliseconds, its documented default)
/// and the check's deadline under it.
constexpr int kGeminiHookTimeoutMs = 60000;
constexpr int kGeminiCheckDeadlineS = kGeminiHookTimeoutMs / 1000 - 10;

/// The hook's shell command: `<binary> check --format <format> <options>
/// --deadline N || exit 2`, the binary quoted for `sh` when its path needs it.
std::string hookCommand(Agent agent, const std::string& binary, const HookOptions& options);

/// The handler install writes (type, command, timeout; Claude Code's
/// `"onFailure": "block"`, so a hook that cannot start, times out or fails
/// blocks the call; Gemini CLI's name and description).
nlohmann::ordered_json hookHandler(Agent agent, const std::string& command);

/// The matcher group install adds under hooks.<event>: every tool, one
/// handler (hookHandler).
nlohmann::ordered_json hookGroup(Agent agent, const std::string& command);

/// The Claude Code mode of the toolguard hook already in the settings
/// (a hook written without --mode decides), or nullopt when there is none.
std::optional<ClaudeMode> installedClaudeMode(const nlohmann::ordered_json& settings);

/// The words of the agent's toolguard hook already in the settings
/// (`.../toolguard check --format F [options]`), or nullopt when there is none.
std::optional<std::vector<std::string>> installedHookWords(const nlohmann::ordered_json& settings,
                                                           Agent agent);

/// Settings whose hooks have a shape toolguard cannot edit safely (names the
/// key, e.g. "hooks.PreToolUse[1].hooks: expected an array, found string").
class HookShapeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One change made to the settings, for the report.
struct HookChange {
  enum class Kind { Added, Updated, Removed };
  Kind kind = Kind::Added;
  std::string where;                ///< "hooks.PreToolUse[2]" or "hooks.PreToolUse[0].hooks[1]"
  nlohmann::ordered_json entry;     ///< the group added, or the handler updated / removed
  nlohmann::ordered_json previous;  ///< Updated: the handler before
};

/// Makes the settings run toolguard's hook with `command`, for calls (the
/// agent's event) and for results (its result_event). Nothing changes
/// (empty result) when the handler already is hookHandler's; a toolguard
/// handler of the same format (another binary path, other options, another
/// timeout) is updated in place, keeping fields of its own; otherwise
/// hookGroup is appended. Throws HookShapeError.
std::vector<HookChange> installHook(nlohmann::ordered_json& settings, Agent agent,
                                    const std::string& command);

/// Removes every handler, for calls and for results, that runs `command` or
/// `<any path>/toolguard check --format <format>`, then the groups, the event array and the "hooks"
/// object that are left empty by it. Empty result: there was none. Throws
/// HookShapeError.
std::vector<HookChange> uninstallHook(nlohmann::ordered_json& settings, Agent agent,
                                      const std::string& command);

/// Settings in the file that would keep the installed hook from running
/// (Claude Code's disableAllHooks, Gemini CLI's hooksConfig), as sentences.
std::vector<std::string> hookWarnings(const nlohmann::ordered_json& settings, Agent agent);

}  // namespace toolguard::cli
