#pragma once
// The hooks that see what a tool returned: Claude Code's PostToolUse and
// Gemini CLI's AfterTool. The result is judged (toolguard/result_scan.hpp)
// and answered: the user told, the model warned, and secrets redacted where
// the agent lets a hook replace the result.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "front/call_json.hpp"
#include "toolguard/expected.hpp"
#include "toolguard/result_scan.hpp"

namespace toolguard::front {

/// A result hook's input: the call, as its PreToolUse (BeforeTool) input
/// gives it, and what the tool returned (`tool_response`).
struct ResultHook {
  ToolCall call;
  nlohmann::json response;
};

/// nullopt when `text` is not a result hook's input in `format` (a
/// PreToolUse input, say); else the hook's input, or why it does not read.
std::optional<Expected<ResultHook>> readResultHook(const std::string& text, CallFormat format,
                                                   const std::string& default_cwd);

/// The hook's answer: {} when nothing was found; else a message to the user
/// (systemMessage), a warning to the model beside the result
/// (additionalContext), and the result with its secrets redacted where the
/// agent takes a replacement (Claude Code: an MCP tool's output; Gemini CLI:
/// every tool's).
nlohmann::json renderResultAnswer(const ResultHook& hook, const ResultFindings& findings,
                                  CallFormat format);

}  // namespace toolguard::front
