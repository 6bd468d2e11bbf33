// libFuzzer target: the hook input formats as `toolguard check --format=...`
// reads them (toolguard's own call JSON, Claude Code's PreToolUse hook,
// Gemini CLI's safety checker and BeforeTool hook; the first byte picks the
// format). A call that is read is decided by the default profile; one that is
// not becomes the input-error decision. The oracle: reading never throws, an
// unread call has a reason, an unreadable input is never allowed, and the
// answer rendered in the format is one line of valid JSON.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "front/call_json.hpp"
#include "fuzz_input.hpp"
#include "toolguard/policy_builder.hpp"

namespace {

const toolguard::Engine& engine() {
  static const toolguard::Engine instance = toolguard::PolicyBuilder().profile("default").build();
  return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace toolguard;
  using namespace toolguard::front;
  fuzz::FuzzInput input(data, size);
  static const CallFormat formats[] = {CallFormat::Toolguard, CallFormat::Claude,
                                       CallFormat::Gemini, CallFormat::GeminiHook};
  const CallFormat format = formats[input.takeByte() % 4];
  const std::string text(input.rest());
  const ParsedCall parsed = parseCallText(text, format, "/work/app");
  Decision decision;
  std::string tool;
  if (parsed.call) {
    decision = engine().decide(*parsed.call);
    tool = parsed.call->tool;
  } else {
    if (parsed.error.empty()) __builtin_trap();
    decision = inputErrorDecision(parsed.error);
    if (decision.verdict == Verdict::Allow) __builtin_trap();
  }
  const std::string line = dumpLine(renderDecision(decision, tool, format));
  if (line.find('\n') != std::string::npos) __builtin_trap();
  if (!nlohmann::json::accept(line)) __builtin_trap();
  return 0;
}
