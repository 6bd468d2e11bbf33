#pragma once
// The hooks that see what a tool returned: Claude Code's PostToolUse and
// Gemini CLI's AfterTool. The result is judged (toolguard/result_scan.hpp)
// and answered: the user told, the model warned, and secrets redacted where
// the agent lets a hook replace the result.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "front/call_json.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/expected.hpp"
#include "toolguard/result_scan.hpp"
#include "toolguard/session_state.hpp"

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

/// Where a judged result is remembered and recorded.
struct ResultSinks {
  SessionRepository* sessions = nullptr;  ///< the call's session remembers the findings
  AuditSink* audit = nullptr;             ///< gets resultAuditRecord of the findings
  std::string via = "hook";               ///< the route, for the audit record
};

/// Judges what the tool returned and answers the hook (renderResultAnswer).
/// When something was found, the call's session remembers it (labels
/// sensitive, untrusted) and the audit records it. When either cannot be
/// written the answer stands and `problems` says why (one line each).
nlohmann::json answerResultHook(const ResultHook& hook, CallFormat format, const ResultSinks& sinks,
                                std::string& problems);

}  // namespace toolguard::front
