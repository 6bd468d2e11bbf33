// `toolguard test [FILES]`: runs every rule's examples and the cases of test files.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/call_json.hpp"
#include "cli/commands.hpp"
#include "cli/policy_options.hpp"
#include "toolguard/policy_tests.hpp"

namespace toolguard::cli {
namespace {

struct TestOptions {
  PolicyOptions policy;
  std::vector<std::string> files;
  bool quiet = false;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PolicyError(SourceLocation{path, 0, 0}, "cannot read file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int runTests(TestOptions o) {
  // Policy files join the explicit layer; test files are run against the result.
  std::vector<std::pair<std::string, std::string>> test_files;
  for (const std::string& file : o.files) {
    std::string text = readFile(file);
    if (isPolicyTestText(text)) {
      test_files.emplace_back(file, std::move(text));
    } else {
      o.policy.policy_files.push_back(file);
    }
  }
  PolicySources sources = sourcesFor(o.policy, currentDirectory());
  sources.check_examples = false;
  const Engine engine(loadPolicy(sources));

  int passed = 0, failed = 0;
  auto report = [&](bool ok, const SourceLocation& where, const std::string& what) {
    (ok ? passed : failed)++;
    if (ok && o.quiet) return;
    std::cout << (ok ? "PASS " : "FAIL ") << where.toString() << " " << what << "\n";
  };

  std::vector<PolicyDiagnostic> failures = checkRuleExamples(engine.policy());
  for (const auto& rule : engine.policy().rules) {
    for (const RuleExample& ex : rule->examples()) {
      // Built-in rules' examples share one location: a failure is this
      // example's when it also names this rule and this call.
      const std::string call = ex.call.tool + " " + dumpLine(ex.call.args);
      bool ok = true;
      for (const auto& f : failures) {
        ok = ok &&
             !(f.where.toString() == ex.where.toString() &&
               f.message.starts_with("rule " + rule->id() + ":") &&
               f.message.find(ex.call.args.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace)) != std::string::npos);
      }
      std::string what =
          "rule " + rule->id() + (ex.should_match ? " matches " : " does not match ") + call;
      report(ok, ex.where, what);
    }
  }
  for (const auto& f : failures) std::cout << "  " << f.toString() << "\n";

  for (const auto& [file, text] : test_files) {
    for (const PolicyTestCase& test : parsePolicyTests(text, file)) {
      PolicyTestResult result = runPolicyTest(engine, test);
      std::string what = test.name + ": expected " + std::string(toString(test.expect));
      if (test.rule) what += " by rule " + *test.rule;
      if (!result.passed) {
        what += ", got " + std::string(toString(result.decision.verdict));
        what += result.decision.rule_id.empty()
                    ? " (" + std::string(toString(result.decision.basis)) + ")"
                    : " by rule " + result.decision.rule_id;
        what += ": " + result.decision.reason;
      }
      report(result.passed, test.where, what);
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace

void addTestCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<TestOptions>();
  CLI::App* cmd = app.add_subcommand(
      "test",
      "Run every rule's examples and the cases of test files (YAML with a tests: list); "
      "other FILES are policy files added to the policy under test. Exit 1 on any failure.");
  cmd->add_option("files", options->files, "Policy files and test files")->type_name("FILE");
  cmd->add_flag("-q,--quiet", options->quiet, "Print only failures and the summary");
  addPolicyOptions(*cmd, options->policy);
  cmd->callback([options, &exit_code] {
    try {
      exit_code = runTests(*options);
    } catch (const PolicyError& e) {
      std::cout << e.what() << "\n0 passed, 1 failed\n";
      exit_code = kExitError;
    }
  });
}

}  // namespace toolguard::cli
