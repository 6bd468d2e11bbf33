// toolguard's hook entry in Claude Code's and Gemini CLI's settings: adding,
// recognizing and removing it. The shapes are in docs/formats/.
#include "cli/agent_hooks.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "core/shell_quote.hpp"
#include "foreign_policy/shell_words.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::ordered_json;

const AgentInfo kClaude{"claude", "Claude Code", ".claude", "PreToolUse", "claude", "PostToolUse"};
const AgentInfo kGemini{"gemini",     "Gemini CLI",  ".gemini",
                        "BeforeTool", "gemini-hook", "AfterTool"};

// The handler's command, or "" when it has none.
std::string commandOf(const ordered_json& handler) {
  if (!handler.is_object()) return "";
  auto command = handler.find("command");
  return command != handler.end() && command->is_string() ? command->get<std::string>() : "";
}

// The words of a toolguard hook's command in `format`, whatever the
// binary's directory: `.../toolguard check --format <format> [options]`
// (the options install writes: --mode X, --deadline N, --agent-asks,
// --defer-headless-asks, --sandbox), with or
// without the fail-closed `|| exit 2` (older installs wrote neither); nullopt
// for any other command. The words are split as `sh` splits plain words,
// quotes and backslashes (shlexSplit: it reads back what hookCommand writes).
std::optional<std::vector<std::string>> toolguardHookWords(const ordered_json& handler,
                                                           const std::string& format) {
  auto words = detail::shlexSplit(commandOf(handler));
  if (!words || words->size() < 4) return std::nullopt;
  const size_t n = words->size();
  if (n >= 7 && (*words)[n - 3] == "||" && (*words)[n - 2] == "exit" && (*words)[n - 1] == "2") {
    words->resize(n - 3);
  }
  if (std::filesystem::path((*words)[0]).filename() != "toolguard" || (*words)[1] != "check" ||
      (*words)[2] != "--format" || (*words)[3] != format) {
    return std::nullopt;
  }
  for (size_t i = 4; i < words->size(); ++i) {
    const std::string& word = (*words)[i];
    if (word == "--agent-asks" || word == "--defer-headless-asks" || word == "--sandbox") continue;
    if ((word == "--mode" || word == "--deadline") && i + 1 < words->size()) {
      ++i;
      continue;
    }
    return std::nullopt;
  }
  return words;
}

bool isToolguardHandler(const ordered_json& handler, const std::string& format) {
  return toolguardHookWords(handler, format).has_value();
}

// "found string" for a shape error.
std::string found(const ordered_json& value) {
  return std::string("found ") + value.type_name();
}

// The array of matcher groups under hooks.<event>, checked for the shape
// install and uninstall edit; null when there is none (and `create` is false).
ordered_json* eventGroups(ordered_json& settings, const std::string& event, bool create) {
  auto hooks = settings.find("hooks");
  if (hooks == settings.end() || hooks->is_null()) {
    if (!create) return nullptr;
    settings["hooks"] = ordered_json::object();
    hooks = settings.find("hooks");
  }
  if (!hooks->is_object()) throw HookShapeError("hooks: expected an object, " + found(*hooks));
  auto groups = hooks->find(event);
  if (groups == hooks->end() || groups->is_null()) {
    if (!create) return nullptr;
    (*hooks)[event] = ordered_json::array();
    groups = hooks->find(event);
  }
  const std::string where = "hooks." + event;
  if (!groups->is_array()) throw HookShapeError(where + ": expected an array, " + found(*groups));
  for (size_t i = 0; i < groups->size(); ++i) {
    const ordered_json& group = (*groups)[i];
    const std::string at = where + "[" + std::to_string(i) + "]";
    if (!group.is_object()) throw HookShapeError(at + ": expected an object, " + found(group));
    auto handlers = group.find("hooks");
    if (handlers != group.end() && !handlers->is_array()) {
      throw HookShapeError(at + ".hooks: expected an array, " + found(*handlers));
    }
  }
  return &*groups;
}

// "hooks.<event>[group].hooks[handler]".
std::string handlerWhere(const std::string& event, size_t group, size_t handler) {
  return "hooks." + event + "[" + std::to_string(group) + "].hooks[" + std::to_string(handler) +
         "]";
}

}  // namespace

const AgentInfo& agentInfo(Agent agent) {
  return agent == Agent::Claude ? kClaude : kGemini;
}

std::optional<Agent> agentNamed(const std::string& id) {
  if (id == kClaude.id) return Agent::Claude;
  if (id == kGemini.id) return Agent::Gemini;
  return std::nullopt;
}

std::string settingsPath(Agent agent, InstallScope scope, const std::string& home,
                         const std::string& project) {
  const std::filesystem::path base = scope == InstallScope::User ? home : project;
  return (base / agentInfo(agent).directory / "settings.json").string();
}

const char* claudeModeName(ClaudeMode mode) {
  return mode == ClaudeMode::Decide ? "decide" : "tighten";
}

std::string hookCommand(Agent agent, const std::string& binary, const HookOptions& options) {
  std::string command = detail::quotedIfNeeded(binary, detail::EqualsSign::Plain) +
                        " check --format " + agentInfo(agent).format;
  if (agent == Agent::Claude) {
    command += std::string(" --mode ") + claudeModeName(options.claude_mode);
    if (options.claude_defers) command += " --defer-headless-asks";
    if (options.sandbox) command += " --sandbox";
    command += " --deadline " + std::to_string(kClaudeCheckDeadlineS);
  } else {
    if (options.gemini_asks) command += " --agent-asks";
    if (options.sandbox) command += " --sandbox";
    command += " --deadline " + std::to_string(kGeminiCheckDeadlineS);
  }
  // Both agents run a hook's command through the shell and treat exit 2 as
  // "block"; any other failure (127 when the binary is gone) lets the call
  // through. `|| exit 2` makes a missing or broken toolguard block.
  return command + " || exit 2";
}

ordered_json hookHandler(Agent agent, const std::string& command) {
  ordered_json handler = ordered_json::object();
  if (agent == Agent::Gemini) {
    // A name lets Gemini CLI's /hooks panel and hooksConfig.disabled refer to it.
    handler["name"] = "toolguard";
  }
  handler["type"] = "command";
  handler["command"] = command;
  if (agent == Agent::Claude) {
    // Seconds. Claude Code 2.1.295+: a hook that cannot start, times out or
    // exits with another code than 0 or 2 blocks the call instead of letting
    // it through (docs/agent-install.md says what older releases do).
    handler["timeout"] = kClaudeHookTimeoutS;
    handler["onFailure"] = "block";
  } else {
    handler["timeout"] = kGeminiHookTimeoutMs;  // milliseconds
    handler["description"] = "toolguard: allow, deny or abort each tool call";
  }
  return handler;
}

ordered_json hookGroup(Agent agent, const std::string& command) {
  ordered_json group = ordered_json::object();
  // Gemini CLI matches tools with a regex: ".*" (every tool) works in every
  // revision, where "*" is only special-cased in newer ones.
  group["matcher"] = agent == Agent::Gemini ? ".*" : "*";
  group["hooks"] = ordered_json::array();
  group["hooks"].push_back(hookHandler(agent, command));
  return group;
}

std::optional<std::vector<std::string>> installedHookWords(const ordered_json& settings,
                                                           Agent agent) {
  const AgentInfo& info = agentInfo(agent);
  auto hooks = settings.find("hooks");
  if (hooks == settings.end() || !hooks->is_object()) return std::nullopt;
  auto groups = hooks->find(info.event);
  if (groups == hooks->end() || !groups->is_array()) return std::nullopt;
  for (const ordered_json& group : *groups) {
    if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) continue;
    for (const ordered_json& handler : group["hooks"]) {
      if (auto words = toolguardHookWords(handler, info.format)) return words;
    }
  }
  return std::nullopt;
}

std::optional<ClaudeMode> installedClaudeMode(const ordered_json& settings) {
  auto words = installedHookWords(settings, Agent::Claude);
  if (!words) return std::nullopt;
  auto mode = std::find(words->begin(), words->end(), "--mode");
  const bool tighten = mode != words->end() && mode + 1 != words->end() && mode[1] == "tighten";
  return tighten ? ClaudeMode::Tighten : ClaudeMode::Decide;
}

namespace {

std::vector<HookChange> installEventHook(ordered_json& settings, Agent agent,
                                         const std::string& command, const std::string& event) {
  const AgentInfo& info = agentInfo(agent);
  // Checks the shape (throwing before anything changes) without creating keys.
  ordered_json* groups = eventGroups(settings, event, false);
  std::vector<std::pair<size_t, size_t>> ours;  // toolguard's handlers, whatever their version
  if (groups) {
    for (size_t g = 0; g < groups->size(); ++g) {
      const ordered_json& handlers = (*groups)[g].value("hooks", ordered_json::array());
      for (size_t h = 0; h < handlers.size(); ++h) {
        if (commandOf(handlers[h]) == command || isToolguardHandler(handlers[h], info.format)) {
          ours.emplace_back(g, h);
        }
      }
    }
  }
  std::vector<HookChange> changes;
  if (!ours.empty()) {
    const ordered_json wanted = hookHandler(agent, command);
    for (const auto& [g, h] : ours) {
      ordered_json& handler = (*groups)[g]["hooks"][h];
      ordered_json updated = handler;
      for (const auto& [key, value] : wanted.items()) {
        // A name or description of the user's own stays.
        if (key == "name" || key == "description") {
          if (!updated.contains(key)) updated[key] = value;
          continue;
        }
        updated[key] = value;
      }
      if (updated == handler) continue;
      HookChange change;
      change.kind = HookChange::Kind::Updated;
      change.where = handlerWhere(event, g, h);
      change.previous = handler;
      change.entry = updated;
      handler = std::move(updated);
      changes.push_back(std::move(change));
    }
    return changes;  // empty: already installed as wanted
  }
  groups = eventGroups(settings, event, true);
  HookChange change;
  change.kind = HookChange::Kind::Added;
  change.where = "hooks." + event + "[" + std::to_string(groups->size()) + "]";
  change.entry = hookGroup(agent, command);
  groups->push_back(change.entry);
  changes.push_back(std::move(change));
  return changes;
}

std::vector<HookChange> uninstallEventHook(ordered_json& settings, Agent agent,
                                           const std::string& command, const std::string& event) {
  const AgentInfo& info = agentInfo(agent);
  ordered_json* groups = eventGroups(settings, event, false);
  if (!groups) return {};
  std::vector<HookChange> changes;
  ordered_json kept = ordered_json::array();
  for (size_t g = 0; g < groups->size(); ++g) {
    ordered_json& group = (*groups)[g];
    auto handlers = group.find("hooks");
    if (handlers == group.end()) {
      kept.push_back(std::move(group));
      continue;
    }
    const ordered_json original = group;
    const size_t changes_before = changes.size();
    ordered_json remaining = ordered_json::array();
    for (size_t h = 0; h < handlers->size(); ++h) {
      ordered_json& handler = (*handlers)[h];
      if (commandOf(handler) != command && !isToolguardHandler(handler, info.format)) {
        remaining.push_back(std::move(handler));
        continue;
      }
      HookChange change;
      change.kind = HookChange::Kind::Removed;
      change.where = handlerWhere(event, g, h);
      change.entry = std::move(handler);
      changes.push_back(std::move(change));
    }
    const bool emptied = remaining.empty() && !handlers->empty();
    *handlers = std::move(remaining);
    if (!emptied) {
      kept.push_back(std::move(group));
      continue;
    }
    // A group whose only handlers were toolguard's is what install added: it
    // goes too, and is reported whole (as install reported it).
    changes.resize(changes_before);
    HookChange change;
    change.kind = HookChange::Kind::Removed;
    change.where = "hooks." + event + "[" + std::to_string(g) + "]";
    change.entry = original;
    changes.push_back(std::move(change));
  }
  if (changes.empty()) return {};
  *groups = std::move(kept);
  ordered_json& hooks = settings["hooks"];
  if (groups->empty()) hooks.erase(event);
  if (hooks.empty()) settings.erase("hooks");
  return changes;
}

}  // namespace

// `edit` for the call hook's event, then the result hook's; both shapes are
// checked before anything changes.
template <typename EditEvent>
std::vector<HookChange> forBothEvents(ordered_json& settings, Agent agent, EditEvent edit) {
  const AgentInfo& info = agentInfo(agent);
  (void)eventGroups(settings, info.event, false);
  (void)eventGroups(settings, info.result_event, false);
  std::vector<HookChange> changes = edit(info.event);
  for (HookChange& change : edit(info.result_event)) changes.push_back(std::move(change));
  return changes;
}

std::vector<HookChange> installHook(ordered_json& settings, Agent agent,
                                    const std::string& command) {
  return forBothEvents(settings, agent, [&](const std::string& event) {
    return installEventHook(settings, agent, command, event);
  });
}

std::vector<HookChange> uninstallHook(ordered_json& settings, Agent agent,
                                      const std::string& command) {
  return forBothEvents(settings, agent, [&](const std::string& event) {
    return uninstallEventHook(settings, agent, command, event);
  });
}

std::vector<std::string> hookWarnings(const ordered_json& settings, Agent agent) {
  std::vector<std::string> warnings;
  if (agent == Agent::Claude) {
    auto disable = settings.find("disableAllHooks");
    if (disable != settings.end() && *disable == true) {
      warnings.push_back(
          "\"disableAllHooks\": true in this file: Claude Code runs no hooks while it is set");
    }
    return warnings;
  }
  auto config = settings.find("hooksConfig");
  if (config == settings.end() || !config->is_object()) return warnings;
  auto enabled = config->find("enabled");
  if (enabled != config->end() && *enabled == false) {
    warnings.push_back(
        "\"hooksConfig\": {\"enabled\": false} in this file: Gemini CLI runs no hooks while it "
        "is set");
  }
  auto disabled = config->find("disabled");
  if (disabled != config->end() && disabled->is_array()) {
    for (const ordered_json& name : *disabled) {
      if (name == "toolguard") {
        warnings.push_back(
            "\"toolguard\" is in hooksConfig.disabled in this file: Gemini CLI skips the hook");
      }
    }
  }
  return warnings;
}

}  // namespace toolguard::cli
