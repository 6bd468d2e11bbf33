// Shell commands: parsing and whole decisions for a typical command and a
// long one, through the built-in default policy.
#include <benchmark/benchmark.h>

#include "toolguard/policy_builder.hpp"
#include "toolguard/shell.hpp"

namespace {

using namespace toolguard;

const std::string kTypical = "git status && make -j4 test 2>&1 | tail -n 20";

std::string longCommand() {
  std::string text;
  while (text.size() < 4096) text += "echo \"step $i\" && ls -la src/ | grep -v '^d' > /dev/null; ";
  return text.substr(0, 4096);
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

void decide(benchmark::State& state, const std::string& command) {
  const Engine engine = PolicyBuilder().profile("default").build();
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", command}};
  call.context.cwd = "/work/app";
  for (auto _ : state) {
    Decision d = engine.decide(call);
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * command.size()));
}

void BM_DecideShellTypical(benchmark::State& state) {
  decide(state, kTypical);
}
BENCHMARK(BM_DecideShellTypical);

void BM_DecideShellHostile(benchmark::State& state) {
  decide(state, "echo ok; sudo bash -c 'rm -r -f \"$HOME\"' | cat");
}
BENCHMARK(BM_DecideShellHostile);

void BM_DecideShellLong4KiB(benchmark::State& state) {
  decide(state, longCommand());
}
BENCHMARK(BM_DecideShellLong4KiB);

}  // namespace
