// Audit records as readable lines, with the command or paths of the call.
#include "front/audit_line.hpp"

#include <iostream>

#include "front/call_json.hpp"
#include "front/colour.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/terminal_prompt.hpp"
#include "toolguard/tool_catalog.hpp"

namespace toolguard::front {
namespace {

using nlohmann::json;

std::string field(const json& record, const char* key) {
  auto it = record.find(key);
  if (it == record.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return dumpLine(*it);
}

}  // namespace

std::string auditSubject(const json& record) {
  auto args = record.find("args");
  auto tool = record.find("tool");
  if (args == record.end() || !args->is_object() || tool == record.end() || !tool->is_string()) {
    return "";
  }
  // The call as the guard saw it: its command and path arguments are found
  // the same way, whatever the tool calls them.
  ToolCall call;
  call.tool = tool->get<std::string>();
  call.args = *args;
  const CallView view(call, ToolCatalog::builtin().resolve(call.tool));
  if (const std::optional<std::string>& command = view.command()) return dumpLine(*command);
  std::string out;
  for (const std::string& path : view.rawPaths()) {
    out += (out.empty() ? "" : " ") + dumpLine(path);
  }
  return out;
}

std::string readableAuditLine(const json& record, bool colour) {
  if (record.contains("unreadable")) {
    std::string line = terminalSafe(field(record, "file"));
    line += ':';
    line += field(record, "line");
    line += ": unreadable: ";
    line += terminalSafe(field(record, "unreadable"));
    return line;
  }
  auto orDash = [](std::string text) { return text.empty() ? std::string("-") : text; };
  // What a tool returned (no verdict: the call was decided before it ran).
  if (field(record, "event") == "tool-result") {
    std::string line = terminalSafe(orDash(field(record, "time")));
    line += " result " + terminalSafe(orDash(field(record, "tool")));
    if (const std::string subject = auditSubject(record); !subject.empty()) {
      line += ' ' + terminalSafe(subject);
    }
    const json findings = record.value("findings", json::object());
    if (const std::string secret = field(findings, "secret"); !secret.empty()) {
      line += " secret=" + dumpLine(terminalSafe(secret));
    }
    if (const std::string text = field(findings, "instructions"); !text.empty()) {
      line += " instructions=" + dumpLine(terminalSafe(text));
    }
    if (record.value("redacted", false)) line += " redacted";
    return line;
  }
  const std::string verdict = field(record, "verdict");
  std::string line = terminalSafe(orDash(field(record, "time")));
  line += ' ';
  line += paintVerdict(verdict, terminalSafe(orDash(verdict)), colour);
  line += ' ';
  line += terminalSafe(orDash(field(record, "tool")));
  if (const std::string subject = auditSubject(record); !subject.empty()) {
    line += ' ';
    line += terminalSafe(subject);
  }
  if (auto malformed = record.find("malformed"); malformed != record.end() && *malformed == true) {
    line += " malformed";
  }
  if (const std::string rule = field(record, "rule"); !rule.empty()) {
    line += " rule=";
    line += terminalSafe(rule);
  }
  const std::string policy = field(record, "policy_verdict");
  if (!policy.empty() && policy != verdict) {
    line += " policy=";
    line += terminalSafe(policy);
  }
  if (auto approval = record.find("approval"); approval != record.end() && approval->is_object()) {
    if (const std::string by = field(*approval, "by"); !by.empty()) {
      line += " by=";
      line += terminalSafe(by);
    }
  }
  line += " reason=";
  line += terminalSafe(field(record, "reason"));
  return line;
}

}  // namespace toolguard::front

namespace toolguard::front {

int printChainReport(const AuditChainReport& report, bool as_json) {
  if (as_json) {
    json issues = json::array();
    for (const AuditChainIssue& i : report.issues)
      issues.push_back({{"where", i.where}, {"what", i.what}});
    std::cout << json{{"ok", report.ok()},
                      {"records", report.records},
                      {"chain", report.chain},
                      {"head", report.head},
                      {"issues", issues},
                      {"notes", report.notes},
                      {"unchained", report.unchained}}
                     .dump(2, ' ', true, json::error_handler_t::replace)
              << "\n";
  } else {
    for (const AuditChainIssue& i : report.issues) {
      std::cout << terminalSafe(i.where) << ": " << terminalSafe(i.what) << "\n";
    }
    for (const std::string& note : report.notes)
      std::cout << "note: " << terminalSafe(note) << "\n";
    if (report.ok()) {
      std::cout << "verified " << report.records << " records"
                << (report.chain.empty() ? "" : ", chain " + report.chain) << ", head "
                << (report.head.empty() ? "(none)" : report.head) << "\n";
    } else {
      std::cout << "the audit was changed: " << report.issues.size() << " problem"
                << (report.issues.size() == 1 ? "" : "s") << " in " << report.records
                << " records\n";
    }
  }
  std::cout << std::flush;
  return report.ok() ? 0 : 1;
}

}  // namespace toolguard::front
