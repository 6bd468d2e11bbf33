#pragma once
// Policy test files: calls with the verdict a policy must give them.
//
//   tests:
//     - name: no writes to /etc          # optional
//       tool: Write
//       args: {file_path: /etc/passwd}
//       context: {cwd: /home/me/project, mode: headless}   # optional
//       env: {PYTEST_ADDOPTS: -p x}      # optional: the agent's environment
//       expect: deny
//       rule: system-write               # optional: the deciding rule
//     - command: rm -rf /                # shorthand for {tool: Bash, args: {command: ...}}
//       expect: deny
//     - tool: to_pdf                     # a tool the catalog does not know,
//       tool_entry: {category: document, risk: low}   # described as in tools:
//       expect: allow
//     - command: python3 scripts/gen.py    # judged as a call run in the sandbox
//       confined: true                     # (CallContext::confined)
//       expect: allow

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/engine.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard {

/// One test case of a test file.
struct PolicyTestCase {
  std::string name;
  ToolCall call;  ///< cwd defaults to /workspace
  Verdict expect = Verdict::Deny;
  std::optional<std::string> rule;
  /// The agent's environment (`NAME=value`) the call is judged under; a
  /// test sees only these and a PATH of the system's directories, never the
  /// environment of the process running it.
  std::vector<std::string> environment;
  /// The call's tool as a policy file's `tools:` entry describes it (kind,
  /// category, risk, ...), added for this case only; null: the policy's own.
  nlohmann::json tool_entry;
  SourceLocation where;
};

/// The result of running one case.
struct PolicyTestResult {
  bool passed = false;
  Decision decision;
};

/// True when a YAML text is a test file (its top level has `tests:`).
bool isPolicyTestText(std::string_view text);

/// True when a test file is a policy file too: its top level holds policy
/// keys (rules, tools, default, ...) beside `tests:` and `version:`, as the
/// built-in profiles do. `toolguard test` loads it and runs its cases.
bool testTextHoldsPolicy(std::string_view text);

/// Parses a test file. Throws PolicyError with file, line and column.
std::vector<PolicyTestCase> parsePolicyTests(std::string_view text, const std::string& name);

/// Runs one case: the final verdict must equal `expect` (escalate is compared
/// with the policy's verdict before resolution), and the rule if one is named.
PolicyTestResult runPolicyTest(const Engine& engine, const PolicyTestCase& test);

}  // namespace toolguard
