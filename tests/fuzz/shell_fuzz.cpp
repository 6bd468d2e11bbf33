// libFuzzer target: any bytes as a shell command, through the parser, the
// program model and every built-in shell rule (the whole decision).
#include <cstddef>
#include <cstdint>
#include <string>

#include "toolguard/policy_builder.hpp"
#include "toolguard/shell.hpp"

namespace {

const toolguard::Engine& engine() {
  static const toolguard::Engine instance = toolguard::PolicyBuilder().profile("default").build();
  return instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  toolguard::ShellParseOptions options;
  options.home = "/home/fuzz";
  toolguard::ShellProgram program = toolguard::parseShellProgram(text, options);
  for (const toolguard::SimpleCommand& command : program.commands) {
    (void)command.name();
    (void)command.runsFromUnusualPlace();
  }
  toolguard::ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", text}};
  call.context.cwd = "/work/app";
  const toolguard::Decision decision = engine().decide(call);
  // A program that does not parse must never be allowed.
  if (program.parse_error && decision.verdict == toolguard::Verdict::Allow) __builtin_trap();
  return 0;
}
