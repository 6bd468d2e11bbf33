// Calls in, decisions out, in toolguard's format and the agents' hook formats.
// The agents' formats are described in docs/formats/.
#include "front/call_json.hpp"

#include <filesystem>
#include <span>
#include <utility>

#include "core/model_text.hpp"
#include "json/compact_dump.hpp"
#include "policy/did_you_mean.hpp"
#include "toolguard/expected.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/session_state.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::front {
namespace {

using nlohmann::json;

// An optional string field: its text, "" when it is absent or null; fails,
// naming it, when it is not a string.
Expected<std::string> optionalString(const json& object, const char* key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::string();
  if (!it->is_string()) return fail(path + key + ": expected a string");
  return it->get<std::string>();
}

// Reads optional string fields (key, where the text goes) in order; fails at
// the first that is not a string.
Expected<void> readOptionalStrings(
    const json& object, const std::string& path,
    std::initializer_list<std::pair<const char*, std::string*>> fields) {
  for (const auto& [key, out] : fields) {
    Expected<std::string> text = optionalString(object, key, path);
    if (!text) return fail(text.error());
    *out = std::move(*text);
  }
  return {};
}

// True for a cwd that names no directory by itself ("src", "./app"): the
// agent's directory is unknown, and toolguard's own is not it.
// "~" and "~/..." are the home directory; "~user/..." is refused too (a user
// who does not exist would leave it relative to toolguard's own directory).
bool isRelativeCwd(const std::string& cwd) {
  if (cwd.empty() || cwd.front() == '/') return false;
  return !(cwd == "~" || cwd.starts_with("~/"));
}

// The call's cwd made absolute ("~" expanded), or `default_cwd` when the call
// gives none. A relative one is kept as it is: parseCall refuses it.
std::string absoluteCwd(const std::string& cwd, const std::string& default_cwd) {
  if (cwd.empty()) return default_cwd;
  if (isRelativeCwd(cwd)) return cwd;
  return normalizePath(cwd, default_cwd, homeDirectory());
}

// Where each format carries the working directory, for messages.
const char* cwdField(CallFormat format) {
  switch (format) {
    case CallFormat::Toolguard:
      return "context.cwd";
    case CallFormat::Gemini:
      return "context.environment.cwd";
    case CallFormat::Claude:
    case CallFormat::GeminiHook:
      break;
  }
  return "cwd";
}

// Names other call shapes give a field (MCP's and OpenAI's `arguments`,
// Claude Code's `tool_input`), and the field they mean here.
struct FieldAlias {
  const char* alias;
  const char* field;
};

constexpr FieldAlias kCallAliases[] = {
    {"arguments", "args"},      {"input", "args"},          {"tool_input", "args"},
    {"parameters", "args"},     {"params", "args"},         {"name", "tool"},
    {"tool_name", "tool"},      {"cwd", "context.cwd"},     {"session_id", "context.session"},
    {"agent", "context.agent"}, {"model", "context.model"}, {"role", "context.role"},
    {"mode", "context.mode"},
};

constexpr FieldAlias kContextAliases[] = {
    {"session_id", "session"}, {"agent_id", "agent"},        {"model_id", "model"},
    {"workdir", "cwd"},        {"working_directory", "cwd"}, {"directory", "cwd"},
};

// " (did you mean 'args'?)" for a mistyped field, or for a field another call
// shape names that way; " (expected tool, args, context)" when nothing is close.
std::string fieldSuggestion(const std::string& key, const std::vector<std::string>& known,
                            std::span<const FieldAlias> aliases) {
  for (const FieldAlias& a : aliases) {
    if (key == a.alias) return std::string(" (did you mean '") + a.field + "'?)";
  }
  if (std::string hint = detail::didYouMean(key, known); !hint.empty()) return hint;
  for (const FieldAlias& a : aliases) {
    if (!detail::didYouMean(key, {a.alias}).empty()) {
      return std::string(" (did you mean '") + a.field + "'?)";
    }
  }
  std::string expected;
  for (const std::string& name : known) expected += (expected.empty() ? "" : ", ") + name;
  return " (expected " + expected + ")";
}

// Fails, naming the field and what it may have meant, when `object` has a
// field not in `known`.
Expected<void> checkKeys(const json& object, std::initializer_list<const char*> known,
                         const std::string& path, std::span<const FieldAlias> aliases = {}) {
  for (const auto& [key, value] : object.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) {
      std::vector<std::string> names(known.begin(), known.end());
      return fail(path + key + ": unknown field" + fieldSuggestion(key, names, aliases));
    }
  }
  return {};
}

ParsedCall parseToolguard(const json& in, const std::string& default_cwd) {
  ParsedCall out;
  if (!in.is_object()) return {std::nullopt, "expected a JSON object with tool and args"};
  if (Expected<void> known = checkKeys(in, {"tool", "args", "context"}, "", kCallAliases); !known) {
    return {std::nullopt, known.error()};
  }
  ToolCall call;
  auto tool = in.find("tool");
  if (tool == in.end() || !tool->is_string() || tool->get<std::string>().empty()) {
    return {std::nullopt, "tool: required, a non-empty string"};
  }
  call.tool = tool->get<std::string>();
  if (auto args = in.find("args"); args != in.end()) {
    if (!args->is_object()) return {std::nullopt, "args: expected a JSON object"};
    call.args = *args;
  }
  std::string cwd;
  if (auto ctx = in.find("context"); ctx != in.end() && !ctx->is_null()) {
    if (!ctx->is_object()) return {std::nullopt, "context: expected a JSON object"};
    if (Expected<void> known =
            checkKeys(*ctx, {"cwd", "agent", "session", "model", "role", "mode", "roots"},
                      "context.", kContextAliases);
        !known) {
      return {std::nullopt, known.error()};
    }
    CallContext& c = call.context;
    for (const auto& [key, value] : ctx->items()) {
      if (key == "roots" || value.is_null()) continue;
      if (!value.is_string()) return {std::nullopt, "context." + key + ": expected a string"};
      std::string problem = setContextField(c, key, value.get<std::string>());
      if (!problem.empty()) return {std::nullopt, "context." + key + ": " + problem};
    }
    cwd = c.cwd;
    if (auto roots = ctx->find("roots"); roots != ctx->end()) {
      if (!roots->is_array()) return {std::nullopt, "context.roots: expected a list of paths"};
      for (const auto& r : *roots) {
        if (!r.is_string() || r.get_ref<const std::string&>().empty()) {
          return {std::nullopt, "context.roots: expected a list of non-empty paths"};
        }
        c.workspace_roots.push_back(r.get<std::string>());
      }
    }
  }
  call.context.cwd = absoluteCwd(cwd, default_cwd);
  out.call = std::move(call);
  return out;
}

// `tool_name` and `tool_input` of a hook input (Claude Code and Gemini CLI
// hooks share them) into `call`; the problem, or empty when there is none.
std::string readHookTool(const json& in, ToolCall& call) {
  auto name = in.find("tool_name");
  if (name == in.end() || !name->is_string() || name->get<std::string>().empty()) {
    return "tool_name: required, a non-empty string";
  }
  call.tool = name->get<std::string>();
  // The agents always send the arguments; a hook input without them is not
  // one of theirs, and a call judged without its arguments could be anything.
  auto input = in.find("tool_input");
  if (input == in.end() || !input->is_object()) {
    return "tool_input: required, a JSON object (the tool's arguments)";
  }
  call.args = *input;
  return "";
}

// Claude Code PreToolUse hook input (docs/formats/claude-code-hook.md).
ParsedCall parseClaude(const json& in, const std::string& default_cwd) {
  ParsedCall out;
  if (!in.is_object()) return {std::nullopt, "expected a PreToolUse hook input object"};
  ToolCall call;
  if (std::string problem = readHookTool(in, call); !problem.empty())
    return {std::nullopt, problem};
  std::string cwd, mode, event;
  if (Expected<void> read = readOptionalStrings(in, "",
                                                {{"cwd", &cwd},
                                                 {"session_id", &call.context.session},
                                                 {"agent_id", &call.context.agent},
                                                 {"permission_mode", &mode},
                                                 {"hook_event_name", &event}});
      !read) {
    return {std::nullopt, read.error()};
  }
  if (!event.empty() && event != "PreToolUse") {
    return {std::nullopt, "hook_event_name: expected PreToolUse, got " + event};
  }
  if (call.context.agent.empty()) call.context.agent = "claude-code";
  // A subagent's calls (agent_id) belong to the session that started it.
  if (!call.context.session.empty()) {
    call.context.session_key = SessionStore::keyOf("claude-code", call.context.session);
  }
  // dontAsk: Claude Code never prompts, so an ask would become a silent deny there too.
  if (mode == "dontAsk") call.context.mode = InteractionMode::Headless;
  call.context.cwd = absoluteCwd(cwd, default_cwd);
  out.call = std::move(call);
  return out;
}

// Gemini CLI safety-checker input (docs/formats/gemini-cli-checker.md).
ParsedCall parseGemini(const json& in, const std::string& default_cwd) {
  ParsedCall out;
  if (!in.is_object()) return {std::nullopt, "expected a safety-checker input object"};
  auto tc = in.find("toolCall");
  if (tc == in.end() || !tc->is_object()) return {std::nullopt, "toolCall: required object"};
  ToolCall call;
  auto name = tc->find("name");
  if (name == tc->end() || !name->is_string() || name->get<std::string>().empty()) {
    return {std::nullopt, "toolCall.name: required, a non-empty string"};
  }
  call.tool = name->get<std::string>();
  if (auto args = tc->find("args"); args != tc->end() && !args->is_null()) {
    if (!args->is_object()) return {std::nullopt, "toolCall.args: expected a JSON object"};
    call.args = *args;
  }
  std::string cwd;
  if (auto ctx = in.find("context"); ctx != in.end() && ctx->is_object()) {
    if (auto env = ctx->find("environment"); env != ctx->end() && env->is_object()) {
      Expected<std::string> env_cwd = optionalString(*env, "cwd", "context.environment.");
      if (!env_cwd) return {std::nullopt, env_cwd.error()};
      cwd = std::move(*env_cwd);
      if (auto ws = env->find("workspaces"); ws != env->end()) {
        if (!ws->is_array())
          return {std::nullopt, "context.environment.workspaces: expected a list"};
        for (const auto& w : *ws) {
          if (!w.is_string() || w.get_ref<const std::string&>().empty()) {
            return {std::nullopt,
                    "context.environment.workspaces: expected a list of non-empty paths"};
          }
          call.context.workspace_roots.push_back(w.get<std::string>());
        }
      }
    }
  }
  call.context.agent = "gemini-cli";
  call.context.cwd = absoluteCwd(cwd, default_cwd);
  out.call = std::move(call);
  return out;
}

// Gemini CLI BeforeTool hook input (docs/formats/gemini-cli-checker.md,
// section 5). The session may well be interactive; it is the hook that cannot
// ask (see renderGeminiHook), so the call keeps the interactive mode and an
// ask is answered where the answer is written.
ParsedCall parseGeminiHook(const json& in, const std::string& default_cwd) {
  ParsedCall out;
  if (!in.is_object()) return {std::nullopt, "expected a BeforeTool hook input object"};
  ToolCall call;
  if (std::string problem = readHookTool(in, call); !problem.empty())
    return {std::nullopt, problem};
  std::string cwd, event;
  if (Expected<void> read = readOptionalStrings(
          in, "",
          {{"cwd", &cwd}, {"session_id", &call.context.session}, {"hook_event_name", &event}});
      !read) {
    return {std::nullopt, read.error()};
  }
  if (!event.empty() && event != "BeforeTool") {
    return {std::nullopt, "hook_event_name: expected BeforeTool, got " + event};
  }
  if (auto mcp = in.find("mcp_context"); mcp != in.end() && !mcp->is_null()) {
    if (!mcp->is_object()) return {std::nullopt, "mcp_context: expected a JSON object"};
    Expected<std::string> server = optionalString(*mcp, "server_name", "mcp_context.");
    if (!server) return {std::nullopt, server.error()};
    call.context.mcp_server = std::move(*server);
  }
  call.context.agent = "gemini-cli";
  if (!call.context.session.empty()) {
    call.context.session_key = SessionStore::keyOf("gemini-cli", call.context.session);
  }
  call.context.cwd = absoluteCwd(cwd, default_cwd);
  out.call = std::move(call);
  return out;
}

std::string reasonFor(const Decision& d) {
  if (isFinal(d.verdict)) return d.model_reason;
  if (d.reason.empty()) return std::string("toolguard: ") + std::string(toString(d.verdict));
  return "toolguard: " + d.reason;
}

// Gemini CLI BeforeTool hook output: only "deny" blocks, and its reason goes
// to the model. Before Gemini CLI 0.36 a BeforeTool hook had no way to ask the
// user (those revisions read "ask" as "not blocked" and run the call through
// their own confirmation, which allows read-only tools without a word), so
// unless the hook was installed for a Gemini CLI that asks (`agent_asks`), an
// ask is a deny whose reason says so and how a person approves the call.
json renderGeminiHook(const Decision& d, bool agent_asks) {
  if (d.verdict == Verdict::Allow) return {{"decision", "allow"}};
  if (d.verdict == Verdict::Ask && agent_asks) {
    // Gemini CLI 0.36+ (google-gemini/gemini-cli#21146): its confirmation
    // prompt, with systemMessage shown in it; headless runs deny as for any ask.
    const std::string why = reasonFor(d);
    return {{"decision", "ask"}, {"reason", why}, {"systemMessage", why}};
  }
  std::string reason = d.model_reason;
  if (d.verdict == Verdict::Ask || reason.empty()) {
    const std::string who = d.rule_id.empty() ? "" : "rule " + d.rule_id;
    reason =
        detail::blockedText(
            d.reason.empty() ? std::string("this call needs a person's approval") : d.reason, who) +
        ". It needs a person's approval, and a Gemini CLI hook cannot ask for it. Tell the "
        "user what you wanted to do and why; they can approve it with `toolguard approvals "
        "add` (see `toolguard explain`) and ask you to retry.";
  }
  json out = {{"decision", "deny"}, {"reason", reason}};
  if (d.verdict == Verdict::Abort) {
    out["continue"] = false;
    out["stopReason"] = reason;
  }
  return out;
}

}  // namespace

CallFormat callFormatNamed(const std::string& name) {
  if (name == "claude") return CallFormat::Claude;
  if (name == "gemini") return CallFormat::Gemini;
  if (name == "gemini-hook") return CallFormat::GeminiHook;
  return CallFormat::Toolguard;
}

ParsedCall parseCall(const json& input, CallFormat format, const std::string& default_cwd) {
  ParsedCall parsed;
  switch (format) {
    case CallFormat::Claude:
      parsed = parseClaude(input, default_cwd);
      break;
    case CallFormat::Gemini:
      parsed = parseGemini(input, default_cwd);
      break;
    case CallFormat::GeminiHook:
      parsed = parseGeminiHook(input, default_cwd);
      break;
    case CallFormat::Toolguard:
      parsed = parseToolguard(input, default_cwd);
      break;
  }
  if (parsed.call && isRelativeCwd(parsed.call->context.cwd)) {
    return {std::nullopt, std::string(cwdField(format)) +
                              ": expected an absolute path (the directory the agent works in), "
                              "got '" +
                              parsed.call->context.cwd + "'"};
  }
  return parsed;
}

ParsedCall parseCallText(const std::string& text, CallFormat format,
                         const std::string& default_cwd) {
  // The argument limit plus the levels of the envelope (e.g. toolCall.args).
  constexpr size_t kMaxInputDepth = kMaxArgumentDepth + 4;
  StrictJson input = parseStrictJson(text, kMaxInputDepth);
  if (!input.value) {
    if (input.problem == StrictJsonProblem::TooDeep) {
      return {std::nullopt,
              "input nested deeper than " + std::to_string(kMaxArgumentDepth) + " levels", true};
    }
    return {std::nullopt, input.error, true};
  }
  return parseCall(*input.value, format, default_cwd);
}

std::string dumpLine(const json& value) {
  // Replacement characters instead of an exception: input bytes that are not
  // UTF-8 can reach a reason through a parse error message.
  return toolguard::detail::compactDump(value, toolguard::detail::BadUtf8::Replace);
}

Decision inputErrorDecision(const std::string& message) {
  Decision d;
  d.verdict = d.policy_verdict = Verdict::Deny;
  d.basis = DecisionBasis::Error;
  d.reason = "invalid call: " + message;
  d.model_reason = detail::blockedText("the tool call is malformed (" + message + ")");
  d.source = SourceLocation{"<input>", 0, 0};
  return d;
}

json decisionToJson(const Decision& d, const std::string& tool) {
  json out = {
      {"verdict", toString(d.verdict)},
      {"reason", d.reason},
      {"model_reason", d.model_reason},
      {"rule", d.rule_id.empty() ? json(nullptr) : json(d.rule_id)},
      {"source", d.source.toString()},
      {"basis", toString(d.basis)},
      {"tool", tool},
  };
  if (d.policy_verdict != d.verdict) out["policy_verdict"] = toString(d.policy_verdict);
  if (d.policy_verdict != d.verdict || !d.resolution.empty()) out["resolution"] = d.resolution;
  if (!d.approval_key.empty()) out["approval_key"] = d.approval_key;
  if (!d.decided_on.empty()) out["decided_on"] = d.decided_on;
  if (d.sanitized_args) out["sanitized_args"] = *d.sanitized_args;
  if (!d.id.empty()) out["id"] = d.id;
  if (!d.labels.empty()) out["labels"] = d.labels;
  if (d.approval) {
    json approval = json::object();
    const ApprovalResolution& a = *d.approval;
    for (const auto& [name, value] : {std::pair{"by", &a.by},
                                      {"outcome", &a.outcome},
                                      {"binding", &a.binding},
                                      {"value", &a.value},
                                      {"scope", &a.scope},
                                      {"scope_id", &a.scope_id},
                                      {"file", &a.file},
                                      {"reason", &a.reason},
                                      {"person", &a.person}}) {
      if (!value->empty()) approval[name] = *value;
    }
    out["approval"] = std::move(approval);
  }
  if (d.llm) {
    const LlmReview& j = *d.llm;
    out["llm"] = {{"verdict", toString(j.verdict)},
                  {"answered", j.answered},
                  {"cached", j.cached},
                  {"reason", j.reason},
                  {"model", j.model},
                  {"requests", j.exchanges.size()}};
  }
  return out;
}

json renderDecision(const Decision& d, const std::string& tool, CallFormat format,
                    const HookStyle& style) {
  switch (format) {
    case CallFormat::Claude: {
      if (d.verdict == Verdict::Allow && style.allow_is_no_opinion) return json::object();
      const char* permission = d.verdict == Verdict::Allow ? "allow"
                               : d.verdict == Verdict::Ask ? (style.ask_is_defer ? "defer" : "ask")
                                                           : "deny";
      json out = {{"hookSpecificOutput",
                   {{"hookEventName", "PreToolUse"},
                    {"permissionDecision", permission},
                    {"permissionDecisionReason", reasonFor(d)}}}};
      if (d.verdict == Verdict::Abort) {
        out["continue"] = false;
        out["stopReason"] = d.model_reason;
      }
      return out;
    }
    case CallFormat::Gemini: {
      const char* decision = d.verdict == Verdict::Allow ? "allow"
                             : d.verdict == Verdict::Ask ? "ask_user"
                                                         : "deny";
      return {{"decision", decision}, {"reason", reasonFor(d)}};
    }
    case CallFormat::GeminiHook:
      return renderGeminiHook(d, style.agent_asks);
    case CallFormat::Toolguard:
      break;
  }
  return decisionToJson(d, tool);
}

}  // namespace toolguard::front
