// `toolguard explain`'s text: the JSON report (explain_report.cpp) for a person.
#include "cli/explain_text.hpp"

#include <sstream>

#include "cli/explain_llm.hpp"
#include "cli/explain_sandbox.hpp"
#include "cli/explain_session.hpp"
#include "core/counted.hpp"
#include "front/call_json.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

// A string member, or `fallback` when it is missing or null.
std::string text(const json& object, const char* key, const std::string& fallback = "") {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return fallback;
  return it->get<std::string>();
}

void printCall(std::ostream& out, const json& report) {
  const json& call = report.at("call");
  const json& context = call.at("context");
  out << "Call: " << text(call, "tool") << " " << front::dumpLine(call.at("args")) << "\n";
  out << "  cwd " << text(context, "cwd") << ", mode " << text(context, "mode");
  if (const std::string agent = text(context, "agent"); !agent.empty()) out << ", agent " << agent;
  if (const std::string model = text(context, "model"); !model.empty()) out << ", model " << model;
  out << "\n";
  const json& tool = report.at("tool");
  out << "Tool: " << text(tool, "name");
  if (!tool.value("known", false)) out << " (unknown to the catalog)";
  out << "\n  kind " << text(tool, "kind") << ", category " << text(tool, "category", "-")
      << ", risk " << text(tool, "risk") << ", side effect " << text(tool, "side_effect")
      << ", tool policy " << text(tool, "policy", "none");
  if (const std::string source = text(tool, "policy_source"); !source.empty()) {
    out << " (" << source << ")";
  }
  out << "\n";
  if (const std::string command = text(report, "command"); !command.empty()) {
    out << "  command: " << command << "\n";
  }
}

void printProgram(std::ostream& out, const json& program) {
  const json& commands = program.at("commands");
  out << "Shell program (" << detail::counted(commands.size(), "simple command", "simple commands");
  if (const std::string error = text(program, "parse_error"); !error.empty()) {
    out << "; does not parse: " << error;
  }
  if (program.value("too_deep", false)) out << "; wrapped too deeply";
  out << "):\n";
  for (const json& c : commands) {
    out << "  [" << c.value("index", 0) << "]";
    for (const json& w : c.at("words")) {
      const std::string word = text(w, "text");
      out << " " << (w.value("dynamic", false) ? "<dynamic:" + word + ">" : word);
    }
    for (const json& r : c.at("redirects")) out << " " << text(r, "op") << " " << text(r, "target");
    std::string notes;
    for (const json& note : c.at("notes")) {
      notes += (notes.empty() ? "" : ", ") + note.get<std::string>();
    }
    if (!notes.empty()) out << "   (" << notes << ")";
    out << "\n";
  }
}

void printPaths(std::ostream& out, const json& paths) {
  for (const json& p : paths) {
    out << "  path " << text(p, "field") << ": " << front::dumpLine(p.at("raw"));
    if (p.contains("refused")) {
      out << " refused: " << text(p, "refused") << "\n";
      continue;
    }
    const std::string lexical = text(p, "lexical");
    const std::string resolved = text(p, "resolved");
    out << " -> " << lexical;
    if (resolved != lexical) out << " (symlinks lead to " << resolved << ")";
    if (p.value("case_insensitive", false)) out << " [case-insensitive file system]";
    out << (p.value("inside_workspace", false) ? ", inside the workspace"
                                               : ", outside the workspace")
        << "\n";
  }
}

void printLayers(std::ostream& out, const json& report) {
  const json& layers = report.at("layers");
  std::string line;
  auto add = [&line](const std::string& s) { line += (line.empty() ? " " : ", ") + s; };
  if (layers.value("builtin", false)) add("builtin");
  for (const json& profile : layers.at("profiles")) add("profile " + profile.get<std::string>());
  if (const std::string user = text(layers, "user"); !user.empty()) add("user " + user);
  for (const json& project : layers.at("projects")) add("project " + project.get<std::string>());
  for (const json& file : layers.at("explicit")) add("explicit " + file.get<std::string>());
  if (const std::string managed = text(layers, "managed"); !managed.empty()) {
    add("managed " + managed);
  }
  out << "Policy layers:" << (line.empty() ? " none" : line) << "\n";
  for (const json& w : report.at("warnings")) {
    out << "  warning: " << text(w, "source") << ": " << text(w, "message") << "\n";
  }
}

// The rule examples that fail: `check` refuses the policy until they pass.
void printFailingExamples(std::ostream& out, const json& report) {
  const json failing = report.value("failing_examples", json::array());
  if (failing.empty()) return;
  out << "Failing examples (" << detail::counted(failing.size(), "example", "examples")
      << "; toolguard check refuses this policy and denies every call until they pass):\n";
  for (const json& e : failing) {
    out << "  " << text(e, "source") << ": " << text(e, "message") << "\n";
    if (const std::string why = text(e, "why"); !why.empty()) out << "      " << why << "\n";
  }
}

void printRule(std::ostream& out, const json& rule) {
  out << "  " << text(rule, "id") << "  [" << text(rule, "layer") << " " << text(rule, "source")
      << "]";
  if (auto command = rule.find("command"); command != rule.end() && command->is_number()) {
    out << " on command [" << command->get<size_t>() << "]";
  }
  out << "\n      " << text(rule, "description") << "\n      => ";
}

void printRules(std::ostream& out, const json& report) {
  const json& consulted = report.at("consulted");
  const bool all = report.contains("not_matched");
  out << "Rules consulted (" << consulted.size() << " of " << report.value("rules_total", 0)
      << (all ? "; the others are listed after them" : "; explain --all shows the others")
      << "):\n";
  for (const json& rule : consulted) {
    printRule(out, rule);
    if (rule.at("verdict").is_string()) {
      out << text(rule, "verdict") << ": " << text(rule, "reason") << "\n";
    } else {
      out << "abstains\n";
    }
  }
  if (!all) return;
  const json& unmatched = report.at("not_matched");
  out << "Rules not consulted (" << unmatched.size() << "):\n";
  for (const json& rule : unmatched) {
    printRule(out, rule);
    out << "no match: " << text(rule, "why") << "\n";
  }
}

void printDecision(std::ostream& out, const json& d) {
  out << "Decision: " << text(d, "verdict") << "\n";
  if (const std::string why = text(d, "explanation"); !why.empty()) out << "  " << why << "\n";
  if (const std::string on = text(d, "decided_on"); !on.empty()) {
    out << "  decided on the command: " << on << "\n";
  }
  if (const std::string policy = text(d, "policy_verdict"); !policy.empty()) {
    out << "  policy said " << policy << "; " << text(d, "resolution") << "\n";
  }
  out << "  reason: " << text(d, "reason") << "\n";
  if (const std::string model = text(d, "model_reason"); !model.empty()) {
    out << "  to the model: " << model << "\n";
  }
  out << "  approval key: " << text(d, "approval_key") << "\n";
}

}  // namespace

std::string explainText(const json& report) {
  std::ostringstream out;
  if (!report.contains("call")) {  // explainFailure: the call or the policy could not be read
    const json& d = report.at("decision");
    out << "Decision: deny\n  " << text(d, "reason") << "\n";
    for (const json& e : report.value("errors", json::array())) {
      out << text(e, "source") << ": " << text(e, "message") << "\n";
    }
    return out.str();
  }
  printCall(out, report);
  if (report.at("shell_program").is_object()) printProgram(out, report.at("shell_program"));
  printPaths(out, report.at("paths"));
  printLayers(out, report);
  printFailingExamples(out, report);
  printRules(out, report);
  printDecision(out, report.at("decision"));
  out << sessionReportText(report.value("session", nlohmann::json()), report.at("decision"));
  out << llmReportText(report.at("llm"));
  out << sandboxReportText(report.value("sandbox", nlohmann::json()));
  return out.str();
}

}  // namespace toolguard::cli
