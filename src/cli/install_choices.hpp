#pragma once
// What `toolguard install` asks of the hook beyond judging calls, chosen from
// the command line, the hook already installed, the person at the terminal
// or the agent's version: Claude Code's mode (decide or tighten) and whether
// Gemini CLI can be sent an ask.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/agent_hooks.hpp"

namespace toolguard::cli {

/// Claude Code's mode, and the sentence saying how it was chosen.
struct ClaudeModeChoice {
  ClaudeMode mode = ClaudeMode::Tighten;
  std::string how;  ///< "given with --mode", "kept from the installed hook", ...
};

/// The mode `flag` names ("decide", "tighten"); else the installed hook's;
/// else, when `interactive`, the person's answer on the terminal; else
/// tighten (it never lets through what Claude Code would not).
ClaudeModeChoice chooseClaudeMode(const std::string& flag, const nlohmann::ordered_json& settings,
                                  bool interactive);

/// What each mode changes, for install's report.
std::string claudeModeSentence(ClaudeMode mode);

/// Whether Gemini CLI honours a hook's "ask", and the sentence saying why.
struct GeminiAsksChoice {
  bool asks = false;
  std::string how;
};

/// `flag` "yes" or "no" as given; "auto" (or empty): asks when `gemini
/// --version` (on PATH) is 0.36.0 or later, the first release whose
/// BeforeTool hooks can answer ask.
GeminiAsksChoice chooseGeminiAsks(const std::string& flag);

/// True for a Gemini CLI version ("0.36.0", "v0.37.1-preview.2", output of
/// `gemini --version`) that honours a BeforeTool hook's ask.
bool geminiVersionAsks(const std::string& version_output);

}  // namespace toolguard::cli
