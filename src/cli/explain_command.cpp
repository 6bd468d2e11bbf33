// `toolguard explain`: every rule consulted for a call, what each said, and why
// the winner won.
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/call_json.hpp"
#include "cli/commands.hpp"
#include "cli/explain_llm.hpp"
#include "cli/policy_options.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::cli {
namespace {

struct ExplainOptions {
  PolicyOptions policy;
  std::string format = "toolguard";
};

std::string describeTool(const ToolInfo& tool, const Policy& policy, const std::string& name) {
  std::ostringstream out;
  out << "Tool: " << name;
  if (tool.name.empty()) out << " (unknown to the catalog)";
  out << "\n  kind " << toString(tool.kind) << ", category "
      << (tool.metadata.category.empty() ? "-" : tool.metadata.category) << ", risk "
      << toString(tool.metadata.risk) << ", side effect " << toString(tool.metadata.side_effect);
  auto p = effectivePolicy(tool);
  out << ", tool policy " << (p ? std::string(toString(*p)) : std::string("none"));
  auto origin = policy.tool_origins.find(name);
  if (origin != policy.tool_origins.end()) out << " (" << origin->second.source.toString() << ")";
  out << "\n";
  return out.str();
}

void printProgram(const ShellProgram& program) {
  std::cout << "Shell program (" << program.commands.size() << " simple commands";
  if (program.parse_error) std::cout << "; does not parse: " << program.error;
  if (program.too_deep) std::cout << "; wrapped too deeply";
  std::cout << "):\n";
  for (size_t i = 0; i < program.commands.size(); ++i) {
    const SimpleCommand& c = program.commands[i];
    std::cout << "  [" << i + 1 << "]";
    for (const ShellWord& w : c.words)
      std::cout << " " << (w.dynamic ? "<dynamic:" + w.text + ">" : w.text);
    for (const ShellRedirect& r : c.redirects) std::cout << " " << r.op << " " << r.target.text;
    std::string where;
    auto add = [&where](const std::string& s) { where += (where.empty() ? "" : ", ") + s; };
    for (const ShellWrapper& w : c.wrappers) add("via " + w.name);
    if (c.privileged) add("privileged");
    if (c.placement.pipeline_length > 1) {
      add("pipeline " + std::to_string(c.placement.pipeline_position + 1) + "/" +
          std::to_string(c.placement.pipeline_length));
    }
    if (c.placement.background) add("background");
    if (c.placement.in_subshell) add("subshell");
    if (c.placement.in_command_substitution) add("command substitution");
    if (c.placement.in_process_substitution) add("process substitution");
    if (c.placement.in_function) add("function " + c.placement.function_name);
    if (c.runsFromUnusualPlace()) add("not a system path");
    if (c.unknown_extra_arguments) add("more arguments at run time");
    if (!where.empty()) std::cout << "   (" << where << ")";
    std::cout << "\n";
  }
}

// Each path argument: as given, made absolute, and where its symlinks lead.
void printPaths(const CallView& view) {
  for (size_t i = 0; i < view.rawPaths().size(); ++i) {
    const std::string& raw = view.rawPaths()[i];
    std::cout << "  path " << view.pathFields()[i] << ": " << dumpLine(raw);
    PathValidation checked = view.resolve(raw, view.call().context.cwd);
    if (!checked) {
      std::cout << " refused: " << checked.error << "\n";
      continue;
    }
    const ResolvedPath& p = *checked.path;
    std::cout << " -> " << p.lexical;
    if (p.resolved != p.lexical) std::cout << " (symlinks lead to " << p.resolved << ")";
    if (p.case_insensitive) std::cout << " [case-insensitive file system]";
    std::cout << (view.insideWorkspace(p) ? ", inside the workspace" : ", outside the workspace")
              << "\n";
  }
}

void printExplanation(const ToolCall& call, const Engine& engine, const PolicySources& sources) {
  const Policy& policy = engine.policy();
  const ToolInfo& tool = engine.toolInfo(call.tool);
  std::cout << "Call: " << call.tool << " " << dumpLine(call.args) << "\n";
  std::cout << "  cwd " << call.context.cwd << ", mode " << toString(call.context.mode);
  if (!call.context.agent.empty()) std::cout << ", agent " << call.context.agent;
  if (!call.context.model.empty()) std::cout << ", model " << call.context.model;
  std::cout << "\n" << describeTool(tool, policy, call.tool);

  const CallView view(call, tool, policy.paths.pathOptions(), &policy.paths.workspace_roots);
  if (view.command()) std::cout << "  command: " << *view.command() << "\n";
  if (const ShellProgram* program = view.shellProgram()) printProgram(*program);
  printPaths(view);

  std::cout << "Policy layers:";
  std::cout << (sources.builtin ? " builtin" : "");
  if (!sources.user_dir.empty()) std::cout << ", user " << sources.user_dir.string();
  for (const auto& root : sources.project_roots) {
    std::cout << ", project " << (root / ".toolguard").string();
  }
  for (const auto& f : sources.explicit_files) std::cout << ", explicit " << f.string();
  if (!sources.managed_dir.empty()) std::cout << ", managed " << sources.managed_dir.string();
  std::cout << "\n";
  for (const PolicyWarning& w : policy.warnings) {
    std::cout << "  warning: " << w.where.toString() << ": " << w.message << "\n";
  }

  const Decision d = engine.decide(call);
  std::cout << "Rules consulted (" << d.consulted.size() << " of " << policy.rules.size()
            << "; the index skipped the rest):\n";
  int findings = 0;
  for (const RuleTrace& t : d.consulted) {
    std::cout << "  " << t.rule->id() << "  [" << toString(t.rule->layer()) << " "
              << t.rule->source().toString() << "]";
    if (t.command_index) std::cout << " on command [" << *t.command_index + 1 << "]";
    std::cout << "\n      " << t.rule->describe() << "\n      => ";
    if (t.finding) {
      ++findings;
      std::cout << toString(t.finding->verdict) << ": " << t.finding->reason << "\n";
    } else {
      std::cout << "abstains\n";
    }
  }
  std::cout << "Decision: " << toString(d.verdict) << "\n";
  switch (d.basis) {
    case DecisionBasis::Rule:
      std::cout << "  decided by rule " << d.rule_id << " (" << d.source.toString() << "): ";
      if (findings > 1) {
        std::cout << "the strictest of " << findings
                  << " findings (abort > deny > ask > escalate > allow; the first rule wins a "
                     "tie)\n";
      } else {
        std::cout << "the only finding\n";
      }
      break;
    case DecisionBasis::ToolPolicy:
      std::cout << "  no rule had a finding; the tool's own policy decides\n";
      break;
    case DecisionBasis::Default:
      std::cout << "  no rule had a finding and the tool has no policy; the default verdict ("
                << d.source.toString() << ") decides\n";
      break;
    case DecisionBasis::Arguments:
      std::cout << "  the arguments failed the tool's input schema or a validateArgs hook\n";
      break;
    case DecisionBasis::RateLimit:
      std::cout << "  a rate limit (" << d.source.toString() << ") refused the call\n";
      break;
    case DecisionBasis::Validator:
      std::cout << "  the program's validation callback refused the call\n";
      break;
    case DecisionBasis::LlmValidator:
      std::cout << "  the LLM validator settled the escalated call\n";
      break;
    case DecisionBasis::Error:
      std::cout << "  the call could not be judged (fail closed)\n";
      break;
  }
  if (!d.decided_on.empty()) std::cout << "  decided on the command: " << d.decided_on << "\n";
  if (d.policy_verdict != d.verdict) {
    std::cout << "  policy said " << toString(d.policy_verdict) << "; " << d.resolution << "\n";
  }
  std::cout << "  reason: " << d.reason << "\n";
  if (!d.model_reason.empty()) std::cout << "  to the model: " << d.model_reason << "\n";
  std::cout << "  approval key: " << d.approval_key << "\n";
  printLlmConsultation(call, engine, sources, d);
}

int runExplain(const ExplainOptions& o) {
  const std::string text{std::istreambuf_iterator<char>(std::cin),
                         std::istreambuf_iterator<char>()};
  ParsedCall parsed = parseCallText(text, callFormatNamed(o.format), currentDirectory());
  if (!parsed.call) {
    std::cout << "Decision: deny\n  invalid call: " << parsed.error << "\n";
    return kExitOk;
  }
  PolicySources sources = sourcesFor(o.policy, parsed.call->context.cwd);
  try {
    const Engine engine(loadPolicy(sources));
    printExplanation(*parsed.call, engine, sources);
  } catch (const PolicyError& e) {
    std::cout << "Decision: deny\n  the policy could not be loaded:\n" << e.what() << "\n";
    return kExitError;
  }
  return kExitOk;
}

}  // namespace

void addExplainCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Read one tool call (same input as check) and print the rules consulted, what each "
      "said, and why the winner won");
  cmd->add_option("--format", options->format, "Input format: toolguard, claude, gemini")
      ->check(CLI::IsMember({"toolguard", "claude", "gemini"}));
  addPolicyOptions(*cmd, options->policy);
  cmd->callback([options, &exit_code] { exit_code = runExplain(*options); });
}

}  // namespace toolguard::cli
