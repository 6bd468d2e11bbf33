#pragma once
// The built-in default policy's verdict on a Bash command, as a user's call
// meets it (tests of ordinary work and of Fig's option lists).

#include <string>

#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::test_support {

/// One engine on the built-in default policy, loaded once per test program.
inline const Engine& defaultPolicyEngine() {
  static const Engine engine = [] { return Engine(loadPolicy(PolicySources{})); }();
  return engine;
}

/// The verdict on `command` run by the Bash tool in `cwd`.
inline Verdict defaultVerdictOf(const std::string& command, const std::string& cwd = "/workspace") {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", command}};
  call.context.cwd = cwd;
  return defaultPolicyEngine().decide(call).verdict;
}

}  // namespace toolguard::test_support
