// libFuzzer target: any bytes as a toolguard YAML policy file, read the way
// `--policy FILE` reads one (mergeFile: a guard plugin when the text is one,
// else a policy document), merged and turned into an engine that decides a
// call. The oracle: a PolicyError (with a location) is the only way to fail;
// no other exception, crash, leak or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "policy/guard_plugins.hpp"
#include "policy/policy_document.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_error.hpp"
#include "toolguard/policy_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  toolguard::fuzz::FuzzInput input(data, size);
  const std::string text(input.rest());
  const std::string name = "fuzz.yaml";
  try {
    toolguard::Policy policy;
    if (toolguard::detail::isGuardPluginText(text, name)) {
      toolguard::detail::PolicyDocument doc;
      doc.name = name;
      doc.rules.push_back(toolguard::detail::parseGuardPlugin(
                              text, name, toolguard::PolicyLayer::Explicit, policy.tools)
                              .rule);
      toolguard::detail::mergeDocument(policy, std::move(doc), toolguard::PolicyLayer::Explicit,
                                       true);
    } else {
      toolguard::mergePolicyText(policy, text, name, toolguard::PolicyLayer::Explicit);
    }
    const toolguard::Engine engine(std::move(policy));
    toolguard::ToolCall call;
    call.tool = "Bash";
    call.args = {{"command", "rm -rf build"}};
    call.context.cwd = "/work/app";
    (void)engine.decide(call);
  } catch (const toolguard::PolicyError& e) {
    if (e.errors().empty()) __builtin_trap();  // an error always names what and where
  }
  return 0;
}
