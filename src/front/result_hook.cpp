// Claude Code's PostToolUse and Gemini CLI's AfterTool hooks: reading them
// and answering what their result holds.
#include "front/result_hook.hpp"

#include "toolguard/audit_log.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::front {
namespace {

using json = nlohmann::json;

// The event name of a result hook, and of the call hook whose input it extends.
const char* resultEvent(CallFormat format) {
  return format == CallFormat::Claude ? "PostToolUse" : "AfterTool";
}
const char* callEvent(CallFormat format) {
  return format == CallFormat::Claude ? "PreToolUse" : "BeforeTool";
}

// What the user reads.
std::string userMessage(const ResultHook& hook, const ResultFindings& findings, bool redacted) {
  std::string message = "toolguard: the result of " + hook.call.tool;
  if (findings.secret) {
    message += " holds a credential (" + *findings.secret + ")";
    message += redacted ? "; the model was given it redacted" : "; the model has seen it";
  }
  if (findings.instructions) {
    message += std::string(findings.secret ? ", and" : "") +
               " contains text aimed at an AI agent: \"" + *findings.instructions + "\"";
  }
  return message;
}

// What the model reads beside the result.
// Whether the agent takes a replacement of this result: Claude Code an MCP
// tool's output, Gemini CLI every tool's.
bool redactsResult(const ResultHook& hook, CallFormat format) {
  return (format == CallFormat::Claude && hook.call.tool.starts_with("mcp__")) ||
         format == CallFormat::GeminiHook;
}

// Gemini CLI's replacement text: the result's llmContent (or the whole
// response) with its secrets redacted.
std::string redactedText(const json& response) {
  const json redacted = redactSecrets(response);
  if (redacted.is_object()) {
    const auto content = redacted.find("llmContent");
    if (content != redacted.end()) {
      return content->is_string() ? content->get<std::string>() : content->dump();
    }
  }
  return redacted.is_string() ? redacted.get<std::string>() : redacted.dump();
}

}  // namespace

std::optional<Expected<ResultHook>> readResultHook(const std::string& text, CallFormat format,
                                                   const std::string& default_cwd) {
  if (format != CallFormat::Claude && format != CallFormat::GeminiHook) return std::nullopt;
  const char* event = resultEvent(format);
  if (text.find(event) == std::string::npos) return std::nullopt;  // the common case: a call
  // A result may nest deeper than arguments: the envelope and the tool's own levels.
  // (The parse does not recurse; neither do the scan and the redaction.)
  StrictJson input = parseStrictJson(text, 1024);
  if (!input.value || !input.value->is_object()) return std::nullopt;  // judged as a call
  json in = std::move(*input.value);
  const auto name = in.find("hook_event_name");
  if (name == in.end() || *name != event) return std::nullopt;
  json response = in.value("tool_response", json());
  in.erase("tool_response");
  in["hook_event_name"] = callEvent(format);
  ParsedCall parsed = parseCall(in, format, default_cwd);
  if (!parsed.call) return Expected<ResultHook>(fail(std::string(event) + ": " + parsed.error));
  return Expected<ResultHook>(ResultHook{std::move(*parsed.call), std::move(response)});
}

json renderResultAnswer(const ResultHook& hook, const ResultFindings& findings, CallFormat format) {
  if (findings.empty()) return json::object();
  json specific = json::object();
  const bool redacted = findings.secret && redactsResult(hook, format);
  if (redacted && format == CallFormat::Claude) {
    specific["updatedMCPToolOutput"] = redactSecrets(hook.response);
  } else if (redacted) {
    specific["tool_output"] = redactedText(hook.response);
  }
  if (format == CallFormat::Claude) specific["hookEventName"] = resultEvent(format);
  specific["additionalContext"] = resultWarningForModel(findings, redacted);
  return {{"systemMessage", userMessage(hook, findings, redacted)},
          {"hookSpecificOutput", std::move(specific)}};
}

json answerResultHook(const ResultHook& hook, CallFormat format, const ResultSinks& sinks,
                      std::string& problems) {
  const ResultFindings findings = scanToolResult(hook.response);
  if (findings.empty()) return json::object();
  auto note = [&problems](const std::string& problem) {
    problems += (problems.empty() ? "" : "\n") + problem;
  };
  if (sinks.sessions != nullptr) {
    try {
      rememberToolResult(*sinks.sessions, hook.call, findings.labels());
    } catch (const std::exception& e) {
      // The result has run; the answer still warns. Later calls of the
      // session cannot know it: the caller says so where the user reads it.
      note(std::string("the session's memory could not be written: ") + e.what());
    }
  }
  if (sinks.audit != nullptr) {
    try {
      sinks.audit->writeRecord(resultAuditRecord(hook.call, findings,
                                                 findings.secret && redactsResult(hook, format),
                                                 sinks.via, std::chrono::system_clock::now()));
    } catch (const std::exception& e) {
      note(std::string("the audit log could not be written: ") + e.what());
    }
  }
  return renderResultAnswer(hook, findings, format);
}

}  // namespace toolguard::front
