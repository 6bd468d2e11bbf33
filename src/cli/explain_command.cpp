// `toolguard explain`: every rule consulted for a call, what each said, and why
// the winner won; with --all the rules that did not match and why; with --json
// the same as one JSON document (explain_report.hpp). A policy whose rule
// examples fail is explained too, with the failing examples (exit 1).
#include <iostream>
#include <iterator>

#include "cli/commands.hpp"
#include "cli/explain_examples.hpp"
#include "cli/explain_report.hpp"
#include "cli/explain_sandbox.hpp"
#include "cli/explain_session.hpp"
#include "cli/explain_text.hpp"
#include "cli/option_flags.hpp"
#include "front/call_json.hpp"
#include "front/policy_options.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::cli {
namespace {

struct ExplainOptions {
  front::PolicyOptions policy;
  std::string format = "toolguard";
  bool all = false;
  bool json = false;
};

void printExplanation(const nlohmann::json& report, bool as_json) {
  if (as_json) {
    std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << explainText(report);
  }
}

int runExplain(const ExplainOptions& o) {
  const std::string text{std::istreambuf_iterator<char>(std::cin),
                         std::istreambuf_iterator<char>()};
  front::ParsedCall parsed =
      front::parseCallText(text, front::callFormatNamed(o.format), front::currentDirectory());
  if (!parsed.call) {
    printExplanation(explainFailure("invalid call: " + parsed.error), o.json);
    return kExitOk;
  }
  PolicySources sources = front::sourcesFor(o.policy, parsed.call->context.cwd);
  // Failing examples stop `check` from loading the policy; explain loads it
  // anyway and shows them beside what the rules decide.
  sources.check_examples = false;
  try {
    Policy policy = loadPolicy(sources);
    nlohmann::json failing = failingExamplesJson(policy);
    const Engine engine(std::move(policy));
    // A call that names its session is judged with what it remembers.
    nlohmann::json session = attachSession(*parsed.call, engine.policy(), toolguardHome(""));
    nlohmann::json report = explainReport(*parsed.call, engine, sources, o.all);
    report["session"] = std::move(session);
    // The allowing rule, whose own sandbox: may add to the confinement.
    const nlohmann::json& decision = report["decision"];
    const auto rule = decision.find("rule");
    const bool allowed = decision.find("verdict") != decision.end() &&
                         decision["verdict"] == "allow" && rule != decision.end() &&
                         rule->is_string();
    report["sandbox"] =
        sandboxReport(*parsed.call, engine, sources, allowed ? rule->get<std::string>() : "");
    const bool examples_fail = !failing.empty();
    report["failing_examples"] = std::move(failing);
    printExplanation(report, o.json);
    if (examples_fail) return kExitFailed;
  } catch (const PolicyError& e) {
    nlohmann::json errors = nlohmann::json::array();
    for (const PolicyDiagnostic& d : e.errors()) {
      errors.push_back({{"source", d.where.toString()}, {"message", d.message}});
    }
    printExplanation(explainFailure("the policy could not be loaded:", std::move(errors)), o.json);
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
  cmd->add_flag("--all", options->all,
                "Also list every rule that was not consulted or did not match, and why");
  cmd->add_flag("--json", options->json,
                "Print one JSON document (fields in docs/policy-files.md) instead of text");
  addPolicyOptions(*cmd, options->policy);
  cmd->callback([options, &exit_code] { exit_code = runExplain(*options); });
}

}  // namespace toolguard::cli
