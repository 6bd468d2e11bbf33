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
};

/// The description of `agent`.
const AgentInfo& agentInfo(Agent agent);

/// The agent named `id` on the command line ("claude", "gemini").
std::optional<Agent> agentNamed(const std::string& id);

/// The settings file of `agent` in `scope`: `<home>/.claude/settings.json` or
/// `<project>/.claude/settings.json` (likewise `.gemini`).
std::string settingsPath(Agent agent, InstallScope scope, const std::string& home,
                         const std::string& project);

/// The hook's shell command: `<binary> check --format <format>`, the binary
/// quoted for `sh` when its path needs it.
std::string hookCommand(Agent agent, const std::string& binary);

/// The matcher group install adds under hooks.<event>: every tool, one
/// command handler running `command`.
nlohmann::ordered_json hookGroup(Agent agent, const std::string& command);

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
  std::string where;             ///< "hooks.PreToolUse[2]" or "hooks.PreToolUse[0].hooks[1]"
  nlohmann::ordered_json entry;  ///< the group added, or the handler updated / removed
  std::string previous_command;  ///< Updated: the command before
};

/// Makes the settings run toolguard's hook with `command`. Nothing changes
/// (empty result) when a handler already runs exactly `command`; a toolguard
/// handler of the same format with another binary path is updated in place;
/// otherwise hookGroup is appended. Throws HookShapeError.
std::vector<HookChange> installHook(nlohmann::ordered_json& settings, Agent agent,
                                    const std::string& command);

/// Removes every handler that runs `command` or `<any path>/toolguard check
/// --format <format>`, then the groups, the event array and the "hooks"
/// object that are left empty by it. Empty result: there was none. Throws
/// HookShapeError.
std::vector<HookChange> uninstallHook(nlohmann::ordered_json& settings, Agent agent,
                                      const std::string& command);

/// Settings in the file that would keep the installed hook from running
/// (Claude Code's disableAllHooks, Gemini CLI's hooksConfig), as sentences.
std::vector<std::string> hookWarnings(const nlohmann::ordered_json& settings, Agent agent);

}  // namespace toolguard::cli
