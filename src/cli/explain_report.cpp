// `toolguard explain` as a JSON document (see explain_report.hpp).
#include "cli/explain_report.hpp"

#include "cli/explain_llm.hpp"
#include "cli/explain_unmatched.hpp"
#include "front/call_json.hpp"
#include "toolguard/call_view.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

json orNull(const std::string& text) {
  return text.empty() ? json(nullptr) : json(text);
}

json callJson(const ToolCall& call) {
  const CallContext& c = call.context;
  json context = {{"cwd", c.cwd},
                  {"mode", toString(c.mode)},
                  {"agent", orNull(c.agent)},
                  {"session", orNull(c.session)},
                  {"model", orNull(c.model)},
                  {"role", orNull(c.role)},
                  {"mcp_server", orNull(c.mcp_server)},
                  {"roots", c.workspace_roots}};
  return {{"tool", call.tool}, {"args", call.args}, {"context", std::move(context)}};
}

json toolJson(const ToolInfo& tool, const Policy& policy, const std::string& name) {
  const std::optional<ToolPolicy> own = effectivePolicy(tool);
  auto origin = policy.tool_origins.find(name);
  return {
      {"name", name},
      {"known", !tool.name.empty()},
      {"kind", toString(tool.kind)},
      {"category", orNull(tool.metadata.category)},
      {"risk", toString(tool.metadata.risk)},
      {"side_effect", toString(tool.metadata.side_effect)},
      {"policy", own ? json(toString(*own)) : json(nullptr)},
      {"policy_source", origin != policy.tool_origins.end() ? json(origin->second.source.toString())
                                                            : json(nullptr)}};
}

// Where a simple command sits and how it was reached, in words.
json commandNotes(const SimpleCommand& c) {
  json notes = json::array();
  for (const ShellWrapper& w : c.wrappers) notes.push_back("via " + w.name);
  if (c.privileged) notes.push_back("privileged");
  if (c.placement.pipeline_length > 1) {
    notes.push_back("pipeline " + std::to_string(c.placement.pipeline_position + 1) + "/" +
                    std::to_string(c.placement.pipeline_length));
  }
  if (c.placement.background) notes.push_back("background");
  if (c.placement.in_subshell) notes.push_back("subshell");
  if (c.placement.in_command_substitution) notes.push_back("command substitution");
  if (c.placement.in_process_substitution) notes.push_back("process substitution");
  if (c.placement.in_function) notes.push_back("function " + c.placement.function_name);
  if (c.runsFromUnusualPlace()) notes.push_back("not a system path");
  if (c.unknown_extra_arguments) notes.push_back("more arguments at run time");
  return notes;
}

json programJson(const ShellProgram& program) {
  json commands = json::array();
  for (size_t i = 0; i < program.commands.size(); ++i) {
    const SimpleCommand& c = program.commands[i];
    json words = json::array();
    for (const ShellWord& w : c.words) words.push_back({{"text", w.text}, {"dynamic", w.dynamic}});
    json redirects = json::array();
    for (const ShellRedirect& r : c.redirects) {
      redirects.push_back({{"op", r.op}, {"target", r.target.text}});
    }
    commands.push_back({{"index", i + 1},
                        {"text", c.text},
                        {"words", std::move(words)},
                        {"redirects", std::move(redirects)},
                        {"notes", commandNotes(c)}});
  }
  return {{"parse_error", program.parse_error ? json(program.error) : json(nullptr)},
          {"too_deep", program.too_deep},
          {"commands", std::move(commands)}};
}

// Each path argument: as given, made absolute, and where its symlinks lead.
json pathsJson(const CallView& view) {
  json paths = json::array();
  for (size_t i = 0; i < view.rawPaths().size(); ++i) {
    const std::string& raw = view.rawPaths()[i];
    json entry = {{"field", view.pathFields()[i]}, {"raw", raw}};
    PathValidation checked = view.resolve(raw, view.call().context.cwd);
    if (!checked) {
      entry["refused"] = checked.error;
    } else {
      const ResolvedPath& p = *checked.path;
      entry["lexical"] = p.lexical;
      entry["resolved"] = p.resolved;
      entry["case_insensitive"] = p.case_insensitive;
      entry["inside_workspace"] = view.insideWorkspace(p);
    }
    paths.push_back(std::move(entry));
  }
  return paths;
}

json layersJson(const PolicySources& sources) {
  json projects = json::array();
  for (const auto& root : sources.project_roots) projects.push_back((root / ".toolguard").string());
  json files = json::array();
  for (const auto& f : sources.explicit_files) files.push_back(f.string());
  return {{"builtin", sources.builtin},
          {"profiles", sources.profiles},
          {"user", orNull(sources.user_dir.string())},
          {"projects", std::move(projects)},
          {"explicit", std::move(files)},
          {"managed", orNull(sources.managed_dir.string())}};
}

json ruleJson(const Rule& rule) {
  return {{"id", rule.id()},
          {"layer", toString(rule.layer())},
          {"source", rule.source().toString()},
          {"description", rule.describe()}};
}

json consultedJson(const Decision& d, int& findings) {
  json out = json::array();
  for (const RuleTrace& t : d.consulted) {
    json entry = ruleJson(*t.rule);
    entry["command"] = t.command_index ? json(*t.command_index + 1) : json(nullptr);
    if (t.finding) {
      ++findings;
      entry["verdict"] = toString(t.finding->verdict);
      entry["reason"] = t.finding->reason;
    } else {
      entry["verdict"] = nullptr;
      entry["reason"] = nullptr;
    }
    out.push_back(std::move(entry));
  }
  return out;
}

// Why the decision came out as it did, in one sentence.
std::string explanation(const Decision& d, int findings) {
  switch (d.basis) {
    case DecisionBasis::Rule:
      return "decided by rule " + d.rule_id + " (" + d.source.toString() + "): " +
             (findings > 1 ? "the strictest of " + std::to_string(findings) +
                                 " findings (abort > deny > ask > escalate > allow; the first "
                                 "rule wins a tie)"
                           : std::string("the only finding"));
    case DecisionBasis::ToolPolicy:
      return "no rule had a finding; the tool's own policy decides";
    case DecisionBasis::Default:
      return "no rule had a finding and the tool has no policy; the default verdict (" +
             d.source.toString() + ") decides";
    case DecisionBasis::Arguments:
      return "the arguments failed the tool's input schema or a validateArgs hook";
    case DecisionBasis::RateLimit:
      return "a rate limit (" + d.source.toString() + ") refused the call";
    case DecisionBasis::Validator:
      return "the program's validation callback refused the call";
    case DecisionBasis::LlmValidator:
      return "the LLM validator settled the escalated call";
    case DecisionBasis::Error:
      break;
  }
  return "the call could not be judged (fail closed)";
}

}  // namespace

json explainReport(const ToolCall& call, const Engine& engine, const PolicySources& sources,
                   bool all) {
  const Policy& policy = engine.policy();
  const ToolInfo& tool = engine.toolInfo(call.tool);
  const CallView view(call, tool, policy.paths.pathOptions(), &policy.paths.workspace_roots);
  json report = {{"version", kExplainReportVersion},
                 {"call", callJson(call)},
                 {"tool", toolJson(tool, policy, call.tool)}};
  report["command"] = view.command() ? json(*view.command()) : json(nullptr);
  const ShellProgram* program = view.shellProgram();
  report["shell_program"] = program != nullptr ? programJson(*program) : json(nullptr);
  report["paths"] = pathsJson(view);
  report["layers"] = layersJson(sources);
  json warnings = json::array();
  for (const PolicyWarning& w : policy.warnings) {
    warnings.push_back({{"source", w.where.toString()}, {"message", w.message}});
  }
  report["warnings"] = std::move(warnings);

  const Decision d = engine.decide(call);
  int findings = 0;
  report["rules_total"] = policy.rules.size();
  report["consulted"] = consultedJson(d, findings);
  if (all) {
    json unmatched = json::array();
    for (const UnmatchedRule& u : unmatchedRules(policy.rules, d, view)) {
      json entry = ruleJson(*u.rule);
      entry["why"] = u.why;
      unmatched.push_back(std::move(entry));
    }
    report["not_matched"] = std::move(unmatched);
  }
  json decision = front::decisionToJson(d, call.tool);
  decision["explanation"] = explanation(d, findings);
  report["decision"] = std::move(decision);
  report["llm"] = llmReport(call, engine, sources, d);
  return report;
}

json explainFailure(const std::string& reason, json errors) {
  return {{"version", kExplainReportVersion},
          {"decision", {{"verdict", "deny"}, {"basis", "error"}, {"reason", reason}}},
          {"errors", std::move(errors)}};
}

}  // namespace toolguard::cli
