// The audit record of one decision.
#include "audit/audit_detail.hpp"
#include "core/random_bytes.hpp"
#include "json/compact_dump.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard {
namespace detail {

std::string randomAuditId() {
  return randomHex(16);
}

}  // namespace detail

namespace {

using detail::BadUtf8;
using detail::JsonObjectWriter;
using nlohmann::json;

// Arguments as recorded: redacted, and not at all when nested too deep to
// copy and print safely (such a call was denied before anything read it).
json recordedArguments(const json& args) {
  if (jsonDepth(args) > kMaxArgumentDepth) {
    return "[not recorded: nested deeper than " + std::to_string(kMaxArgumentDepth) + " levels]";
  }
  return redactSecrets(args);
}

// An approval key or pattern: "TOOL {canonical arguments}" has its
// arguments redacted like the call's; anything else is redacted as text.
std::string redactedApprovalValue(const std::string& value) {
  const size_t brace = value.find('{');
  if (brace != std::string::npos) {
    constexpr int kMaxDepth = static_cast<int>(kMaxArgumentDepth);
    bool too_deep = false;
    json args = json::parse(
        value.begin() + static_cast<std::ptrdiff_t>(brace), value.end(),
        [&too_deep](int depth, json::parse_event_t, json&) {
          if (depth > kMaxDepth) too_deep = true;
          return !too_deep;
        },
        false);
    if (!too_deep && args.is_object()) {
      std::string out = detail::redactSecretsInText(value.substr(0, brace));
      out += detail::compactDump(redactSecrets(args), detail::BadUtf8::Replace);
      return out;
    }
  }
  return detail::redactSecretsInText(value);
}

void putIfNotEmpty(json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

void putRedactedIfNotEmpty(json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = detail::redactSecretsInText(value);
}

json contextRecord(const CallContext& context) {
  json out = json::object();
  putIfNotEmpty(out, "cwd", context.cwd);
  if (!context.workspace_roots.empty()) out["workspace_roots"] = context.workspace_roots;
  putIfNotEmpty(out, "agent", context.agent);
  putIfNotEmpty(out, "session", context.session);
  putIfNotEmpty(out, "model", context.model);
  putIfNotEmpty(out, "role", context.role);
  putIfNotEmpty(out, "mcp_server", context.mcp_server);
  out["mode"] = toString(context.mode);
  if (context.confined) out["confined"] = true;
  return out;
}

json approvalRecord(const ApprovalResolution& a) {
  json out = json::object();
  putIfNotEmpty(out, "by", a.by);
  putIfNotEmpty(out, "outcome", a.outcome);
  putIfNotEmpty(out, "binding", a.binding);
  if (!a.value.empty()) out["value"] = redactedApprovalValue(a.value);
  putIfNotEmpty(out, "scope", a.scope);
  putIfNotEmpty(out, "scope_id", a.scope_id);
  putIfNotEmpty(out, "file", a.file);
  putRedactedIfNotEmpty(out, "reason", a.reason);
  putIfNotEmpty(out, "person", a.person);
  return out;
}

// What the LLM validator said: never the conversation (it repeats the
// arguments) and never the endpoint's key (which is not in the judgement).
json llmRecord(const LlmReview& j) {
  json out = json::object();
  out["verdict"] = toString(j.verdict);
  out["answered"] = j.answered;
  if (j.cached) out["cached"] = true;
  putRedactedIfNotEmpty(out, "reason", j.reason);
  putIfNotEmpty(out, "model", j.model);
  if (!j.skills.empty()) out["skills"] = j.skills;
  out["requests"] = j.exchanges.size();
  out["elapsed_ms"] = j.elapsed.count();
  return out;
}

}  // namespace

nlohmann::json auditRecord(const ToolCall& call, const Decision& decision,
                           std::chrono::system_clock::time_point when) {
  json record = json::object();
  record["time"] = detail::formatAuditTime(when);
  record["id"] = decision.id.empty() ? detail::randomAuditId() : decision.id;
  record["tool"] = call.tool;
  record["args"] = recordedArguments(call.args);
  if (decision.sanitized_args)
    record["sanitized_args"] = recordedArguments(*decision.sanitized_args);
  record["context"] = contextRecord(call.context);
  record["verdict"] = toString(decision.verdict);
  record["policy_verdict"] = toString(decision.policy_verdict);
  // Reasons and the deciding command can quote the arguments.
  record["reason"] = detail::redactSecretsInText(decision.reason);
  putIfNotEmpty(record, "rule", decision.rule_id);
  putIfNotEmpty(record, "source", decision.source.toString());
  record["basis"] = toString(decision.basis);
  putRedactedIfNotEmpty(record, "resolution", decision.resolution);
  putRedactedIfNotEmpty(record, "decided_on", decision.decided_on);
  if (decision.approval) record["approval"] = approvalRecord(*decision.approval);
  if (decision.llm) record["llm"] = llmRecord(*decision.llm);
  if (!decision.extra.is_null()) record["extra"] = recordedArguments(decision.extra);
  // What the call's session remembers of it (sessions only).
  if (!decision.labels.empty()) record["labels"] = decision.labels;
  return record;
}

std::string detail::auditRecordLine(const ToolCall& call, const Decision& decision,
                                    std::chrono::system_clock::time_point when) {
  // Keys in std::map's order, as auditRecord's object has them.
  std::string out;
  out.reserve(512);
  JsonObjectWriter o(out);
  if (decision.approval) o.value("approval", approvalRecord(*decision.approval));
  o.value("args", recordedArguments(call.args));
  o.text("basis", toString(decision.basis));
  {
    const CallContext& context = call.context;
    JsonObjectWriter c(o.key("context"));
    if (!context.agent.empty()) c.string("agent", context.agent);
    if (context.confined) c.key("confined") += "true";
    if (!context.cwd.empty()) c.string("cwd", context.cwd);
    if (!context.mcp_server.empty()) c.string("mcp_server", context.mcp_server);
    c.text("mode", toString(context.mode));
    if (!context.model.empty()) c.string("model", context.model);
    if (!context.role.empty()) c.string("role", context.role);
    if (!context.session.empty()) c.string("session", context.session);
    if (!context.workspace_roots.empty()) c.strings("workspace_roots", context.workspace_roots);
    c.close();
  }
  if (!decision.decided_on.empty()) {
    o.string("decided_on", detail::redactSecretsInText(decision.decided_on));
  }
  if (!decision.extra.is_null()) o.value("extra", recordedArguments(decision.extra));
  o.string("id", decision.id.empty() ? detail::randomAuditId() : decision.id);
  if (!decision.labels.empty()) o.strings("labels", decision.labels);
  if (decision.llm) o.value("llm", llmRecord(*decision.llm));
  o.text("policy_verdict", toString(decision.policy_verdict));
  o.string("reason", detail::redactSecretsInText(decision.reason));
  if (!decision.resolution.empty()) {
    o.string("resolution", detail::redactSecretsInText(decision.resolution));
  }
  if (!decision.rule_id.empty()) o.string("rule", decision.rule_id);
  if (decision.sanitized_args)
    o.value("sanitized_args", recordedArguments(*decision.sanitized_args));
  if (std::string source = decision.source.toString(); !source.empty()) o.string("source", source);
  o.string("time", detail::formatAuditTime(when));
  o.string("tool", call.tool);
  o.text("verdict", toString(decision.verdict));
  o.close();
  return out;
}

PreparedAuditRecord prepareAuditRecord(const nlohmann::json& record) {
  if (!record.is_object()) throw AuditLogError("an audit record must be a JSON object");
  PreparedAuditRecord out;
  if (record.contains("prev_hash") || record.contains("anchor")) {
    json copy = record;  // the chain's own fields are the writer's
    copy.erase("prev_hash");
    copy.erase("anchor");
    out.text = detail::compactDump(copy, BadUtf8::Replace);
  } else {
    out.text = detail::compactDump(record, BadUtf8::Replace);
  }
  out.time = detail::recordString(record, "time");
  out.tool = detail::recordString(record, "tool");
  out.verdict = detail::recordString(record, "verdict");
  out.rule = detail::recordString(record, "rule");
  return out;
}

PreparedAuditRecord prepareDecisionRecord(const ToolCall& call, const Decision& decision,
                                          std::chrono::system_clock::time_point when) {
  PreparedAuditRecord out;
  out.text = detail::auditRecordLine(call, decision, when);
  out.time = detail::formatAuditTime(when);
  out.tool = call.tool;
  out.verdict = std::string(toString(decision.verdict));
  out.rule = decision.rule_id;
  return out;
}

nlohmann::json resultAuditRecord(const ToolCall& call, const ResultFindings& findings,
                                 bool redacted, std::string_view via,
                                 std::chrono::system_clock::time_point when) {
  json record = json::object();
  record["time"] = detail::formatAuditTime(when);
  record["id"] = detail::randomAuditId();
  record["tool"] = call.tool;
  record["event"] = "tool-result";
  record["via"] = via;
  record["args"] = recordedArguments(call.args);
  record["context"] = contextRecord(call.context);
  json found = json::object();
  if (findings.secret) found["secret"] = *findings.secret;
  if (findings.instructions) {
    found["instructions"] = detail::redactSecretsInText(*findings.instructions);
  }
  record["findings"] = std::move(found);
  record["redacted"] = redacted;
  record["labels"] = findings.labels();
  return record;
}

}  // namespace toolguard
