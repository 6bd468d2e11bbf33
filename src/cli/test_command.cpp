// `toolguard test [FILES|DIRS]`: runs the examples of the user's rules (the
// built-in policy's own with --builtin) and the cases of test files; with
// --json one document instead of PASS/FAIL lines.
#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/option_flags.hpp"
#include "cli/policy_paths.hpp"
#include "front/call_json.hpp"
#include "front/policy_options.hpp"
#include "policy/bounded_file.hpp"
#include "policy/rule_examples.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/policy_tests.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::json;

struct TestOptions {
  front::PolicyOptions policy;
  std::vector<std::string> files;
  bool quiet = false;
  bool builtin = false;
  bool json = false;
  bool confined = false;  ///< every case's call runs in the sandbox (--confined)
};

/// The version of `test --json`'s layout; fields are only ever added within one version.
constexpr int kTestReportVersion = 1;

json toolAndArgsJson(const ToolCall& call) {
  return {{"tool", call.tool}, {"args", call.args}};
}

// One example of a rule, as a case.
json exampleCase(const Policy& policy, const Rule& rule, const RuleExample& ex) {
  const std::optional<std::string> failure = detail::exampleFailure(policy, rule, ex);
  json out = {{"kind", "example"},
              {"source", ex.where.toString()},
              {"rule", rule.id()},
              {"layer", toString(rule.layer())},
              {"expect", ex.should_match ? "match" : "no-match"},
              {"call", toolAndArgsJson(ex.call)},
              {"passed", !failure}};
  out["message"] = failure ? json(*failure) : json(nullptr);
  return out;
}

// One case of a test file.
json testCase(const Engine& engine, const PolicyTestCase& test) {
  const PolicyTestResult result = runPolicyTest(engine, test);
  const Decision& d = result.decision;
  return {{"kind", "case"},
          {"source", test.where.toString()},
          {"name", test.name},
          {"call", toolAndArgsJson(test.call)},
          {"expect", toString(test.expect)},
          {"expect_rule", test.rule ? json(*test.rule) : json(nullptr)},
          {"passed", result.passed},
          {"got",
           {{"verdict", toString(d.verdict)},
            {"policy_verdict", toString(d.policy_verdict)},
            {"rule", d.rule_id.empty() ? json(nullptr) : json(d.rule_id)},
            {"basis", toString(d.basis)},
            {"reason", d.reason}}}};
}

json errorReport(const std::vector<PolicyDiagnostic>& errors) {
  json list = json::array();
  for (const PolicyDiagnostic& d : errors) {
    list.push_back({{"source", d.where.toString()}, {"message", d.message}});
  }
  return {{"version", kTestReportVersion},
          {"errors", std::move(list)},
          {"cases", json::array()},
          {"passed", 0},
          {"failed", 0}};
}

// The cases of the built-in profiles loaded (`default` and each --profile):
// the verdicts each profile's model gives (its `tests:`), each judged by the
// default policy and that profile alone, so that no file of the user's can
// change them and they give the same verdicts on every machine.
std::vector<json> builtinProfileCases(const front::PolicyOptions& options) {
  std::vector<std::string> names;
  if (!options.no_builtin) names.emplace_back("default");
  for (const std::string& name : options.profiles) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::vector<json> cases;
  for (const std::string& name : names) {
    const char* text = policyProfileText(name);
    if (text == nullptr || !isPolicyTestText(text)) continue;
    PolicySources alone;  // the built-in layer, nothing else
    alone.check_examples = false;
    if (name != "default") alone.profiles = {name};
    const Engine engine(loadPolicy(alone));
    for (const PolicyTestCase& test : parsePolicyTests(text, "<profile:" + name + ">")) {
      cases.push_back(testCase(engine, test));
    }
  }
  return cases;
}

// Runs everything there is to run; the report (errors when nothing could be).
json runTests(TestOptions o) {
  // Policy files join the explicit layer; test files are run against the result.
  std::vector<std::pair<std::string, std::string>> test_files;
  for (const std::string& file : expandPolicyPaths(o.files)) {
    std::string text = detail::readBoundedFile(file, kMaxPolicyFileBytes, "policy or test file");
    // A policy file with cases of its own (`tests:` beside its rules) is both.
    const bool tests = isPolicyTestText(text);
    if (!tests || testTextHoldsPolicy(text)) o.policy.policy_files.push_back(file);
    if (tests) test_files.emplace_back(file, std::move(text));
  }
  PolicySources sources = front::sourcesFor(o.policy, front::currentDirectory());
  sources.check_examples = false;
  sources.builtin_examples = o.builtin;
  const Engine engine(loadPolicy(sources));
  const Policy& policy = engine.policy();

  json cases = json::array();
  for (const auto& rule : policy.rules) {
    if (rule->layer() == PolicyLayer::Builtin && !o.builtin) continue;
    for (const RuleExample& ex : rule->examples()) cases.push_back(exampleCase(policy, *rule, ex));
  }
  if (o.builtin) {
    for (json& c : builtinProfileCases(o.policy)) cases.push_back(std::move(c));
  }
  for (const auto& [file, text] : test_files) {
    for (PolicyTestCase& test : parsePolicyTests(text, file)) {
      if (o.confined) test.call.context.confined = true;
      cases.push_back(testCase(engine, test));
    }
  }
  if (cases.empty()) {
    return errorReport({{SourceLocation{},
                         "nothing to test: no test cases and no rule examples in the policy "
                         "files given (give policy or test files; --builtin runs the built-in "
                         "policy's own examples)"}});
  }
  size_t passed = 0;
  for (const json& c : cases) passed += c.at("passed").get<bool>() ? 1 : 0;
  return {{"version", kTestReportVersion},
          {"errors", json::array()},
          {"passed", passed},
          {"failed", cases.size() - passed},
          {"cases", std::move(cases)}};
}

// "rule R matches CALL" or "NAME: expected deny by rule R, got ask (default): REASON".
std::string describeCase(const json& c) {
  const json& call = c.at("call");
  const std::string text =
      call.at("tool").get<std::string>() + " " + front::dumpLine(call.at("args"));
  if (c.at("kind") == "example") {
    return "rule " + c.at("rule").get<std::string>() +
           (c.at("expect") == "match" ? " matches " : " does not match ") + text;
  }
  std::string what =
      c.at("name").get<std::string>() + ": expected " + c.at("expect").get<std::string>();
  if (c.at("expect_rule").is_string()) what += " by rule " + c.at("expect_rule").get<std::string>();
  if (!c.at("passed").get<bool>()) {
    const json& got = c.at("got");
    what += ", got " + got.at("verdict").get<std::string>();
    what += got.at("rule").is_string() ? " by rule " + got.at("rule").get<std::string>()
                                       : " (" + got.at("basis").get<std::string>() + ")";
    what += ": " + got.at("reason").get<std::string>();
  }
  return what;
}

void printText(const json& report, bool quiet) {
  for (const json& e : report.at("errors")) {
    const std::string source = e.at("source").get<std::string>();
    std::cout << (source.empty() || source == ":0:0" ? "" : source + ": ")
              << "error: " << e.at("message").get<std::string>() << "\n";
  }
  if (!report.at("errors").empty()) return;
  for (const json& c : report.at("cases")) {
    const bool ok = c.at("passed").get<bool>();
    if (ok && quiet) continue;
    std::cout << (ok ? "PASS " : "FAIL ") << c.at("source").get<std::string>() << " "
              << describeCase(c) << "\n";
    if (!ok && c.at("kind") == "example") {
      std::cout << "  " << c.at("source").get<std::string>() << ": "
                << c.at("message").get<std::string>() << "\n";
    }
  }
  std::cout << report.at("passed").get<size_t>() << " passed, " << report.at("failed").get<size_t>()
            << " failed\n";
}

int runPolicyTests(const TestOptions& o) {
  json report;
  try {
    report = runTests(o);
  } catch (const PolicyError& e) {
    report = errorReport(e.errors());
  }
  if (o.json) {
    std::cout << report.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    printText(report, o.quiet);
  }
  if (!report.at("errors").empty()) return kExitError;
  return report.at("failed").get<size_t>() == 0 ? kExitOk : kExitFailed;
}

}  // namespace

void addTestCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<TestOptions>();
  CLI::App* cmd = app.add_subcommand(
      "test",
      "Run the cases of test files (YAML with a tests: list) and the examples of your rules "
      "(other FILES, and the user, project and managed policy files); --builtin adds the "
      "built-in policy's own examples. Exit 1 on any failure, 2 when there is nothing to run.");
  cmd->add_option("files", options->files,
                  "Policy files and test files; a directory stands for every *.yaml and *.yml "
                  "file under it, in sorted order")
      ->type_name("FILE|DIR");
  cmd->add_flag("-q,--quiet", options->quiet, "Print only failures and the summary");
  cmd->add_flag("--builtin", options->builtin,
                "Also run the examples of the built-in policy's rules (the profiles and "
                "built-in shell rules) and the profiles' own cases (their tests:)");
  cmd->add_flag("--confined", options->confined,
                "Judge the test files' cases as calls that run in toolguard's sandbox with no "
                "network, as check --sandbox does when the kernel holds it all (the workspace's "
                "own code may then run: rule shell-confined-code)");
  cmd->add_flag("--json", options->json,
                "Print one JSON document (fields in docs/policy-files.md) instead of lines");
  addPolicyOptions(*cmd, options->policy);
  cmd->callback([options, &exit_code] { exit_code = runPolicyTests(*options); });
}

}  // namespace toolguard::cli
