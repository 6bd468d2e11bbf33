// Policy test files.
#include "toolguard/policy_tests.hpp"

#include <yaml-cpp/yaml.h>

#include "commands/inherited_environment.hpp"
#include "toolguard/policy_loader.hpp"
#include "yaml_json.hpp"

namespace toolguard {
namespace {

using detail::locationOf;
using detail::yamlToJson;

YAML::Node load(std::string_view text, const std::string& name) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw PolicyError(SourceLocation{name, e.mark.is_null() ? 0 : e.mark.line + 1,
                                     e.mark.is_null() ? 0 : e.mark.column + 1},
                      "invalid YAML: " + e.msg);
  }
}

constexpr const char* kToolEntrySource = "<tool_entry>";

// The policy text that adds a case's tool entry.
std::string toolEntryText(const std::string& tool, const nlohmann::json& entry) {
  return nlohmann::json{{"version", 1}, {"tools", {{tool, entry}}}}.dump();
}

// Why a case's tool entry is not one a policy file could hold; "" when it is.
std::string toolEntryProblem(const std::string& tool, const nlohmann::json& entry) {
  if (!entry.is_object()) return "tool_entry: expected a mapping (as a tools: entry)";
  try {
    Policy policy;
    mergePolicyText(policy, toolEntryText(tool, entry), kToolEntrySource, PolicyLayer::Explicit);
  } catch (const PolicyError& e) {
    std::string problem;
    for (const PolicyDiagnostic& d : e.errors()) {
      problem += (problem.empty() ? "tool_entry: " : "; ") + d.message;
    }
    return problem;
  }
  return "";
}

}  // namespace

bool isPolicyTestText(std::string_view text) {
  try {
    YAML::Node root = YAML::Load(std::string(text));
    return root.IsMap() && root["tests"];
  } catch (const YAML::Exception&) {
    return false;
  }
}

bool testTextHoldsPolicy(std::string_view text) {
  try {
    YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap()) return false;
    for (const auto& entry : root) {
      const std::string key = entry.first.Scalar();
      if (key != "tests" && key != "version") return true;
    }
  } catch (const YAML::Exception&) {
  }
  return false;
}

std::vector<PolicyTestCase> parsePolicyTests(std::string_view text, const std::string& name) {
  YAML::Node root = load(text, name);
  std::vector<PolicyDiagnostic> errors;
  auto fail = [&](const YAML::Node& node, std::string message) {
    errors.push_back({locationOf(node, name), std::move(message)});
  };
  std::vector<PolicyTestCase> cases;
  if (!root.IsMap() || !root["tests"] || !root["tests"].IsSequence()) {
    throw PolicyError(locationOf(root, name), "expected a mapping with a tests: list");
  }
  for (const auto& item : root["tests"]) {
    if (!item.IsMap()) {
      fail(item, "test: expected a mapping");
      continue;
    }
    PolicyTestCase test;
    test.where = locationOf(item, name);
    test.call.context.cwd = "/workspace";
    bool has_expect = false;
    for (const auto& entry : item) {
      const std::string key = entry.first.Scalar();
      const YAML::Node& value = entry.second;
      if (key == "name") {
        test.name = value.Scalar();
      } else if (key == "tool") {
        test.call.tool = value.Scalar();
      } else if (key == "command") {
        if (test.call.tool.empty()) test.call.tool = "Bash";
        test.call.args["command"] = value.Scalar();
      } else if (key == "args") {
        test.call.args = yamlToJson(value);
        if (!test.call.args.is_object()) fail(value, "args: expected a mapping");
      } else if (key == "context") {
        nlohmann::json ctx = yamlToJson(value);
        if (!ctx.is_object()) {
          fail(value, "context: expected a mapping");
          continue;
        }
        for (const auto& [k, v] : ctx.items()) {
          if (!v.is_string()) {
            fail(value, "context." + k + ": expected a string");
            continue;
          }
          std::string problem = setContextField(test.call.context, k, v.get<std::string>());
          if (!problem.empty()) fail(value, "context." + k + ": " + problem);
        }
      } else if (key == "env") {
        if (!value.IsMap()) {
          fail(value, "env: expected a mapping of variable names to values");
          continue;
        }
        for (const auto& variable : value) {
          if (!variable.second.IsScalar()) {
            fail(variable.second, "env." + variable.first.Scalar() + ": expected a string");
            continue;
          }
          test.environment.push_back(variable.first.Scalar() + "=" + variable.second.Scalar());
        }
      } else if (key == "expect") {
        has_expect = true;
        auto verdict = parseVerdict(value.Scalar());
        if (!verdict) {
          fail(value, "expect: unknown verdict '" + value.Scalar() +
                          "' (expected allow, escalate, ask, deny, abort)");
        } else {
          test.expect = *verdict;
        }
      } else if (key == "rule") {
        test.rule = value.Scalar();
      } else if (key == "tool_entry") {
        test.tool_entry = yamlToJson(value);
      } else if (key == "confined") {
        const nlohmann::json flag = yamlToJson(value);
        if (!flag.is_boolean()) fail(value, "confined: expected true or false");
        test.call.context.confined = flag.is_boolean() && flag.get<bool>();
      } else {
        fail(entry.first, "unknown key '" + key +
                              "' in a test (expected name, tool, command, args, context, "
                              "env, expect, rule, tool_entry, confined)");
      }
    }
    if (test.call.tool.empty()) fail(item, "test: tool (or command) is required");
    if (!test.tool_entry.is_null() && !test.call.tool.empty()) {
      std::string problem = toolEntryProblem(test.call.tool, test.tool_entry);
      if (!problem.empty()) fail(item["tool_entry"], std::move(problem));
    }
    if (!has_expect) fail(item, "test: expect is required");
    if (test.name.empty()) test.name = test.call.tool + " " + test.call.args.dump();
    cases.push_back(std::move(test));
  }
  if (!errors.empty()) throw PolicyError(std::move(errors));
  return cases;
}

PolicyTestResult runPolicyTest(const Engine& engine, const PolicyTestCase& test) {
  PolicyTestResult result;
  // Judged as a clean agent would be, whatever this process inherited (a
  // test gives the same verdict on every machine), with the case's env.
  std::vector<std::string> environment = detail::cleanInheritedEnvironment();
  environment.insert(environment.end(), test.environment.begin(), test.environment.end());
  const detail::InheritedEnvironmentScope inherited(std::move(environment));
  if (test.tool_entry.is_null()) {
    result.decision = engine.decide(test.call);
  } else {
    Policy policy = engine.policy();
    mergePolicyText(policy, toolEntryText(test.call.tool, test.tool_entry), kToolEntrySource,
                    PolicyLayer::Explicit);
    result.decision = Engine(std::move(policy)).decide(test.call);
  }
  const Verdict got =
      test.expect == Verdict::Escalate ? result.decision.policy_verdict : result.decision.verdict;
  result.passed = got == test.expect && (!test.rule || *test.rule == result.decision.rule_id);
  return result;
}

}  // namespace toolguard
