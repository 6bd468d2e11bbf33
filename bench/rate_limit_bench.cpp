// What a rate-limited decision pays for counting in the file store (lock,
// read, parse, atomic rewrite with fsync) against counting in memory, and
// what a refused call (read only) and a call no limit applies to cost.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "bench_temp_home.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"

namespace {

using namespace toolguard;

using bench::tempHome;

ToolCall call(const std::string& tool) {
  ToolCall c;
  c.tool = tool;
  c.args = {{"command", "ls"}};
  c.context.cwd = "/work/app";
  c.context.session = "bench-session";
  return c;
}

// range(0): 0 counts in memory, 1 in the file store. A 1 ms window with
// room for 1,000,000 calls: every call is admitted and the file stays small.
Guard limitedGuard(bool file_store, size_t max_calls, std::chrono::milliseconds window) {
  RateLimit limit;
  limit.tool = "Bash";
  limit.max_calls = max_calls;
  limit.window = window;
  GuardOptions options;
  if (file_store) options.rate_limit_store = fileRateLimitStore(tempHome());
  return Guard(PolicyBuilder().allow("Bash").rateLimit(limit).build(), options);
}

void BM_RateLimitedDecision(benchmark::State& state) {
  Guard guard = limitedGuard(state.range(0) == 1, 1000000, std::chrono::milliseconds(1));
  ToolCall bash = call("Bash");
  for (auto _ : state) {
    if (guard.decide(bash).verdict != Verdict::Allow) state.SkipWithError("not allowed");
  }
}

// The limit is full: the store is read, nothing is written.
void BM_RateLimitedDecisionRefused(benchmark::State& state) {
  Guard guard = limitedGuard(state.range(0) == 1, 1, std::chrono::hours(1));
  ToolCall bash = call("Bash");
  guard.decide(bash);
  for (auto _ : state) {
    if (guard.decide(bash).verdict != Verdict::Deny) state.SkipWithError("not refused");
  }
}

// A call no limit applies to never touches the store.
void BM_DecisionNoLimitApplies(benchmark::State& state) {
  Guard guard = limitedGuard(state.range(0) == 1, 1, std::chrono::hours(1));
  ToolCall read = call("Read");
  read.args = {{"file_path", "a.txt"}};
  for (auto _ : state) benchmark::DoNotOptimize(guard.decide(read));
}

BENCHMARK(BM_RateLimitedDecision)->Arg(0)->Arg(1);
BENCHMARK(BM_RateLimitedDecisionRefused)->Arg(0)->Arg(1);
BENCHMARK(BM_DecisionNoLimitApplies)->Arg(0)->Arg(1);

}  // namespace
