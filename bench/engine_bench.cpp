// In-process decision time for policies of 10, 1,000 and 10,000 rules.
#include <benchmark/benchmark.h>

#include <string>
#include <unordered_map>

#include "toolguard/policy_builder.hpp"

namespace {

using namespace toolguard;

// Half exact-name rules (tool_0 ... tool_{n/2-1}), half wildcard rules
// (ns0__* ...), verdicts mixed, plus the built-in catalog.
Engine engineWithRules(int64_t n) {
  PolicyBuilder builder;
  for (int64_t i = 0; i < n / 2; ++i) {
    const std::string name = "tool_" + std::to_string(i);
    switch (i % 3) {
      case 0:
        builder.allow(name);
        break;
      case 1:
        builder.requireApproval(name);
        break;
      default:
        builder.deny(name);
    }
  }
  for (int64_t i = 0; i < n - n / 2; ++i) {
    const std::string pattern = "ns" + std::to_string(i) + "__*";
    if (i % 2 == 0) {
      builder.allow(pattern);
    } else {
      builder.deny(pattern);
    }
  }
  return builder.defaultAction(Verdict::Ask).build();
}

ToolCall benchCall(std::string tool) {
  ToolCall call;
  call.tool = std::move(tool);
  call.args = {{"query", "hello"}};
  call.context.cwd = "/work/app";
  return call;
}

void run(benchmark::State& state, const ToolCall& call) {
  const Engine engine = engineWithRules(state.range(0));
  for (auto _ : state) {
    Decision d = engine.decide(call);
    benchmark::DoNotOptimize(d);
  }
  state.counters["rules"] = static_cast<double>(state.range(0));
}

void BM_DecideExactName(benchmark::State& state) {
  run(state, benchCall("tool_" + std::to_string(state.range(0) / 4)));
}

void BM_DecideWildcardName(benchmark::State& state) {
  run(state, benchCall("ns" + std::to_string(state.range(0) / 4) + "__create_issue"));
}

void BM_DecideNoRuleMatches(benchmark::State& state) {
  run(state, benchCall("WebSearch"));
}

// The floor of a name-level decision: a plain hash map from tool name to a
// ready decision record, looked up and copied out (what any decision returns).
void BM_MapLookupBaseline(benchmark::State& state) {
  std::unordered_map<std::string, Decision> decisions;
  for (int64_t i = 0; i < state.range(0); ++i) {
    Decision d;
    d.verdict = i % 2 == 0 ? Verdict::Allow : Verdict::Deny;
    d.rule_id = "rule-" + std::to_string(i);
    d.reason = "tool tool_" + std::to_string(i) + " is " + (i % 2 == 0 ? "allowed" : "denied");
    decisions.emplace("tool_" + std::to_string(i), std::move(d));
  }
  const std::string name = "tool_" + std::to_string(state.range(0) / 4);
  for (auto _ : state) {
    auto it = decisions.find(name);
    Decision d = it == decisions.end() ? Decision{} : it->second;
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_MapLookupBaseline)->Arg(10)->Arg(1000)->Arg(10000);

BENCHMARK(BM_DecideExactName)->Arg(10)->Arg(1000)->Arg(10000);
BENCHMARK(BM_DecideWildcardName)->Arg(10)->Arg(1000)->Arg(10000);
BENCHMARK(BM_DecideNoRuleMatches)->Arg(10)->Arg(1000)->Arg(10000);

// The built-in default policy on a file write: path normalization and path globs.
void BM_DecideDefaultPolicyFileWrite(benchmark::State& state) {
  const Engine engine = PolicyBuilder().profile("default").build();
  ToolCall call = benchCall("Write");
  call.args = {{"file_path", "src/feature/new_file.cpp"}, {"content", "int main() {}"}};
  for (auto _ : state) {
    Decision d = engine.decide(call);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_DecideDefaultPolicyFileWrite);

}  // namespace

namespace {

// What every `toolguard check` process pays before its first decision.
void BM_LoadBuiltinPolicy(benchmark::State& state) {
  for (auto _ : state) {
    toolguard::Engine engine = toolguard::PolicyBuilder().profile("default").build();
    benchmark::DoNotOptimize(engine);
  }
}
BENCHMARK(BM_LoadBuiltinPolicy)->Unit(benchmark::kMicrosecond);

}  // namespace
