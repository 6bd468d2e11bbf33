// libFuzzer target: any bytes as another agent's policy file, read the way a
// `--policy FILE.json|.toml|.rules` or `policy import` reads it. The first
// byte picks the format: Claude Code settings JSON, Gemini CLI policy TOML,
// Codex Starlark .rules, and (a JSON reader with the same failure modes)
// toolguard's approval store scope file. The oracle: a PolicyError (or
// ApprovalStoreError) naming where is the only way to fail; no other
// exception, no undefined behaviour in the parsers, and an imported document
// merges and builds an engine.
#include <cstddef>
#include <cstdint>
#include <string>

#include "approval/store_format.hpp"
#include "foreign_policy/foreign_policy.hpp"
#include "fuzz_input.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/policy_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace toolguard;
  fuzz::FuzzInput input(data, size);
  const uint8_t selector = input.takeByte();
  const std::string text(input.rest());
  if (selector % 4 == 3) {
    try {
      (void)detail::parseScopeFile("fuzz-scope.json", text);
    } catch (const ApprovalStoreError&) {
    }
    return 0;
  }
  static const detail::ForeignFormat formats[] = {
      detail::ForeignFormat::Claude, detail::ForeignFormat::Gemini, detail::ForeignFormat::Codex};
  static const char* const names[] = {"settings.json", "policy.toml", "default.rules"};
  try {
    detail::ForeignPolicy imported = detail::importForeignPolicy(
        formats[selector % 3], text, names[selector % 3], PolicyLayer::Explicit);
    Policy policy;
    detail::mergeDocument(policy, std::move(imported.document), PolicyLayer::Explicit, true);
    const Engine engine(std::move(policy));
    ToolCall call;
    call.tool = "Bash";
    call.args = {{"command", "git push origin main"}};
    call.context.cwd = "/work/app";
    (void)engine.decide(call);
  } catch (const PolicyError& e) {
    if (e.errors().empty()) __builtin_trap();
  }
  return 0;
}
