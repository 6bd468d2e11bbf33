// `toolguard policy lint FILES|DIRS`: load errors and warnings for policy files
// (`policy import` is in policy_import_command.cpp).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/policy_import_command.hpp"
#include "cli/policy_paths.hpp"
#include "core/counted.hpp"
#include "front/policy_options.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard::cli {
namespace {

struct LintOptions {
  std::vector<std::string> files;
  bool strict = false;
  bool no_builtin = false;
  bool json = false;
};

/// The version of `policy lint --json`'s layout; fields are only ever added within one version.
constexpr int kLintReportVersion = 1;

nlohmann::json diagnostic(const char* severity, const SourceLocation& where,
                          const std::string& message) {
  return {{"severity", severity}, {"source", where.toString()}, {"file", where.file},
          {"line", where.line},   {"column", where.column},     {"message", message}};
}

// Every error and warning about the files, in the order lint finds them.
nlohmann::json lintReport(const LintOptions& given) {
  nlohmann::json diagnostics = nlohmann::json::array();
  size_t errors = 0, warnings = 0;
  LintOptions o = given;
  try {
    o.files = expandPolicyPaths(given.files);  // a directory: the policy files under it
  } catch (const PolicyError& e) {
    for (const auto& d : e.errors()) {
      diagnostics.push_back(diagnostic("error", d.where, d.message));
      ++errors;
    }
    return {{"version", kLintReportVersion},
            {"files", given.files},
            {"diagnostics", std::move(diagnostics)},
            {"errors", errors},
            {"warnings", warnings}};
  }
  Policy policy;
  if (!o.no_builtin)
    mergePolicyText(policy, policyProfileText("default"), "<profile:default>",
                    PolicyLayer::Builtin);
  for (const std::string& file : o.files) {
    try {
      mergePolicyFile(policy, file, PolicyLayer::Explicit);
    } catch (const PolicyError& e) {
      for (const auto& d : e.errors()) {
        diagnostics.push_back(diagnostic("error", d.where, d.message));
        ++errors;
      }
    }
  }
  for (const auto& d : checkRuleExamples(policy)) {
    diagnostics.push_back(diagnostic("error", d.where, d.message));
    ++errors;
  }
  for (const auto& w : lintPolicy(policy)) {
    bool ours = false;
    for (const auto& f : o.files) ours = ours || w.where.file == f;
    if (!ours) continue;
    diagnostics.push_back(diagnostic("warning", w.where, w.message));
    ++warnings;
  }
  return {{"version", kLintReportVersion},
          {"files", o.files},
          {"diagnostics", std::move(diagnostics)},
          {"errors", errors},
          {"warnings", warnings}};
}

int runLint(const LintOptions& o) {
  const nlohmann::json report = lintReport(o);
  if (o.json) {
    std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    for (const auto& d : report.at("diagnostics")) {
      std::cout << d.at("source").get<std::string>() << ": " << d.at("severity").get<std::string>()
                << ": " << d.at("message").get<std::string>() << "\n";
    }
    std::cout << detail::counted(report.at("errors").get<size_t>(), "error", "errors") << ", "
              << detail::counted(report.at("warnings").get<size_t>(), "warning", "warnings")
              << "\n";
  }
  if (report.at("errors").get<size_t>() > 0 ||
      (o.strict && report.at("warnings").get<size_t>() > 0)) {
    return kExitFailed;
  }
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
  lint->add_option("files", options->files,
                   "Policy files; a directory stands for every *.yaml and *.yml file under it, "
                   "in sorted order")
      ->required()
      ->type_name("FILE|DIR");
  lint->add_flag("--strict", options->strict, "Warnings fail too");
  lint->add_flag("--no-builtin", options->no_builtin,
                 "Lint the files alone, without the built-in default policy");
  lint->add_flag("--json", options->json,
                 "Print one JSON document (fields in docs/policy-files.md) instead of lines");
  lint->callback([options, &exit_code] { exit_code = runLint(*options); });
  addPolicyImportCommand(*policy, exit_code);
}

}  // namespace toolguard::cli
