// Shell commands: parsing and whole decisions for a typical command and a
// long one, through the built-in default policy.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "toolguard/policy_builder.hpp"
#include "toolguard/shell.hpp"

namespace {

using namespace toolguard;

const std::string kTypical = "git status && make -j4 test 2>&1 | tail -n 20";

std::string longCommand() {
  std::string text;
  while (text.size() < 4090) text += "echo \"step $i\" && ls -la src/ | grep -v '^d' > /dev/null; ";
  return text.substr(0, 4090);  // 4 KiB with decide()'s comment
}

void BM_ParseShellTypical(benchmark::State& state) {
  ShellParseOptions options;
  options.home = "/home/u";
  for (auto _ : state) {
    ShellProgram program = parseShellProgram(kTypical, options);
    benchmark::DoNotOptimize(program);
  }
}
BENCHMARK(BM_ParseShellTypical);

// Decides `command` over and over. A long-lived process keeps the shell
// parses it made last (src/shell_unwrap/shell_program_cache.hpp); a hook's
// process meets each command line once. `met_before` false: each decision
// gets a command line this thread has not kept (the command with a comment
// of its own at the end, 128 of them in turn, more than a thread keeps).
void decide(benchmark::State& state, const std::string& command, bool met_before = false) {
  const Engine engine = PolicyBuilder().profile("default").build();
  std::vector<ToolCall> calls(met_before ? 1 : 128);
  for (size_t i = 0; i < calls.size(); ++i) {
    calls[i].tool = "Bash";
    calls[i].args = {{"command", met_before ? command : command + " #" + std::to_string(i)}};
    calls[i].context.cwd = "/work/app";
  }
  size_t next = 0;
  for (auto _ : state) {
    Decision d = engine.decide(calls[next]);
    benchmark::DoNotOptimize(d);
    next = (next + 1) % calls.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * command.size()));
}

void BM_DecideShellTypical(benchmark::State& state) {
  decide(state, kTypical);
}
BENCHMARK(BM_DecideShellTypical);

void BM_DecideShellTypicalMetBefore(benchmark::State& state) {
  decide(state, kTypical, true);
}
BENCHMARK(BM_DecideShellTypicalMetBefore);

void BM_DecideShellHostile(benchmark::State& state) {
  decide(state, "echo ok; sudo bash -c 'rm -r -f \"$HOME\"' | cat");
}
BENCHMARK(BM_DecideShellHostile);

void BM_DecideShellLong4KiB(benchmark::State& state) {
  decide(state, longCommand());
}
BENCHMARK(BM_DecideShellLong4KiB);

}  // namespace
