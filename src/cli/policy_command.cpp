// `toolguard policy lint FILES`: load errors and warnings for policy files
// (`policy import` is in policy_import_command.cpp).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/policy_import_command.hpp"
#include "cli/policy_options.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard::cli {
namespace {

struct LintOptions {
  std::vector<std::string> files;
  bool strict = false;
  bool no_builtin = false;
};

int runLint(const LintOptions& o) {
  int errors = 0;
  Policy policy;
  if (!o.no_builtin)
    mergePolicyText(policy, policyProfileText("default"), "<profile:default>",
                    PolicyLayer::Builtin);
  for (const std::string& file : o.files) {
    try {
      mergePolicyFile(policy, file, PolicyLayer::Explicit);
    } catch (const PolicyError& e) {
      for (const auto& d : e.errors()) {
        std::cout << d.where.toString() << ": error: " << d.message << "\n";
        ++errors;
      }
    }
  }
  for (const auto& d : checkRuleExamples(policy)) {
    std::cout << d.where.toString() << ": error: " << d.message << "\n";
    ++errors;
  }
  int warnings = 0;
  for (const auto& w : lintPolicy(policy)) {
    bool ours = false;
    for (const auto& f : o.files) ours = ours || w.where.file == f;
    if (!ours) continue;
    std::cout << w.where.toString() << ": warning: " << w.message << "\n";
    ++warnings;
  }
  std::cout << errors << " errors, " << warnings << " warnings\n";
  if (errors > 0 || (o.strict && warnings > 0)) return kExitFailed;
  return kExitOk;
}

}  // namespace

void addPolicyCommand(CLI::App& app, int& exit_code) {
  CLI::App* policy = app.add_subcommand("policy", "Work with policy files");
  policy->require_subcommand(1);
  auto options = std::make_shared<LintOptions>();
  CLI::App* lint = policy->add_subcommand(
      "lint",
      "Report load errors (file:line:column) and warnings: rules that can never match, allow "
      "rules shadowed by a deny, unknown tool names. Exit 1 on errors (or warnings with "
      "--strict).");
  lint->add_option("files", options->files, "Policy files")->required()->type_name("FILE");
  lint->add_flag("--strict", options->strict, "Warnings fail too");
  lint->add_flag("--no-builtin", options->no_builtin,
                 "Lint the files alone, without the built-in default policy");
  lint->callback([options, &exit_code] { exit_code = runLint(*options); });
  addPolicyImportCommand(*policy, exit_code);
}

}  // namespace toolguard::cli
