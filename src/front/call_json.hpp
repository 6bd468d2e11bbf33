#pragma once
// The command line's JSON: calls in (toolguard's own format and the agents'
// hook formats) and decisions out.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "toolguard/decision.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::front {

/// Input and output formats of `check`: toolguard's own, Claude Code's
/// PreToolUse hook, Gemini CLI's safety checker and Gemini CLI's BeforeTool hook.
enum class CallFormat { Toolguard, Claude, Gemini, GeminiHook };

/// The format named by --format ("toolguard", "claude", "gemini",
/// "gemini-hook"); CLI11 checks the name, anything else is toolguard's own.
CallFormat callFormatNamed(const std::string& name);

/// A call read from input, or the reason it could not be read (naming the field).
struct ParsedCall {
  std::optional<ToolCall> call;
  std::string error;
  /// The text was not one JSON value (a syntax error, bytes after the value,
  /// a NUL, a key twice, too deep), as opposed to JSON that is not a call.
  bool not_json = false;
};

/// Reads a call in `format` from parsed JSON. Relative or missing cwd resolves
/// against `default_cwd`.
ParsedCall parseCall(const nlohmann::json& input, CallFormat format,
                     const std::string& default_cwd);

/// Reads a call from JSON text with parseStrictJson: a syntax error names line
/// and column, a key twice in one object (at any depth) its JSON pointer.
ParsedCall parseCallText(const std::string& text, CallFormat format,
                         const std::string& default_cwd);

/// toolguard's decision object: verdict, reason, model_reason, rule, source, basis, ...
nlohmann::json decisionToJson(const Decision& decision, const std::string& tool);

/// dumpLine(decisionToJson(decision, tool)), byte for byte, written directly
/// (a fifth of the time: no JSON tree is built).
std::string decisionJsonLine(const Decision& decision, const std::string& tool);

/// How an agent's hook answer is shaped beyond its format (check's --mode
/// and --agent-asks).
struct HookStyle {
  /// claude: an allow is `{}`, no decision, so Claude Code's own permissions
  /// decide (toolguard only ever tightens them).
  bool allow_is_no_opinion = false;
  /// gemini-hook: an ask is `"decision": "ask"` (Gemini CLI 0.36 and later
  /// ask the user) instead of a deny.
  bool agent_asks = false;
  /// claude: an ask is `"permissionDecision": "defer"` (Claude Code 2.1.89
  /// and later, in a non-interactive `claude -p` run: the run stops and the
  /// program that started it asks its user, then resumes it).
  bool ask_is_defer = false;
};

/// The answer in `format` (Claude Code PreToolUse hook output, Gemini CLI
/// safety-checker or BeforeTool hook output, or decisionToJson), shaped by
/// `style` for the hook formats.
nlohmann::json renderDecision(const Decision& decision, const std::string& tool, CallFormat format,
                              const HookStyle& style = {});

/// One line of JSON output; bytes that are not UTF-8 become U+FFFD.
std::string dumpLine(const nlohmann::json& value);

/// A deny decision for input that could not be judged.
Decision inputErrorDecision(const std::string& message);

}  // namespace toolguard::front
