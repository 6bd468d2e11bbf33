// One decision through the C API (libtoolguard_c.so, what the Node.js,
// Python and Go bindings call) beside its floor: the same decision made by a
// C++ Guard directly. The bindings' own benchmarks (bindings/*/bench.*) add
// their language's side; bindings/README.md puts them side by side.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "bench_temp_home.hpp"
#include "front/call_json.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/toolguard.h"

namespace {

using namespace toolguard;

using bench::tempHome;

// The call every binding's benchmark times.
ToolCall gitStatus() {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", "git status"}};
  call.context.cwd = "/workspace";
  return call;
}

// The floor: a C++ Guard on the built-in policy alone, as the C API builds it.
void BM_CppGuardDecide(benchmark::State& state) {
  PolicySources sources;  // the built-in layer only
  GuardOptions options;
  options.store = std::make_shared<ApprovalStore>(tempHome());
  options.report_ask = true;
  Guard guard(Engine(loadPolicy(sources)), options);
  const ToolCall call = gitStatus();
  for (auto _ : state) {
    Decision d = guard.decide(call);
    if (d.verdict != Verdict::Allow) state.SkipWithError("not allowed");
  }
}
BENCHMARK(BM_CppGuardDecide);

struct CGuard {
  tg_guard* guard;
  explicit CGuard(const std::string& home) {
    const nlohmann::json options = {
        {"user", false}, {"project", false}, {"managed", false}, {"audit", false}, {"home", home}};
    guard = tg_guard_new(options.dump().c_str(), nullptr);
    if (guard == nullptr) throw std::runtime_error("tg_guard_new failed");
  }
  ~CGuard() { tg_guard_free(guard); }
};

// The call as JSON text in, the decision as JSON text out.
void BM_CApiCheckJson(benchmark::State& state) {
  CGuard c(tempHome());
  const std::string call = toJson(gitStatus()).dump();
  for (auto _ : state) {
    char* out = tg_guard_check(c.guard, call.c_str(), nullptr);
    benchmark::DoNotOptimize(out);
    tg_string_free(out);
  }
}
BENCHMARK(BM_CApiCheckJson);

// The call as JSON text in, the decision as an object (verdict and reason read).
void BM_CApiDecide(benchmark::State& state) {
  CGuard c(tempHome());
  const std::string call = toJson(gitStatus()).dump();
  for (auto _ : state) {
    tg_decision* d = tg_guard_decide(c.guard, call.data(), call.size(), nullptr);
    if (tg_decision_verdict(d) != TG_VERDICT_ALLOW) state.SkipWithError("not allowed");
    benchmark::DoNotOptimize(tg_decision_reason(d));
    tg_decision_free(d);
  }
}
BENCHMARK(BM_CApiDecide);

}  // namespace

namespace {

// What the C API adds before the decision: reading the call's JSON text.
void BM_ParseCallJson(benchmark::State& state) {
  const std::string call = toolguard::toJson(gitStatus()).dump();
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        toolguard::front::parseCallText(call, toolguard::front::CallFormat::Toolguard, "/"));
  }
}
BENCHMARK(BM_ParseCallJson);

// And after it: the decision as JSON text, through a JSON tree (the command's way).
void BM_RenderDecisionJson(benchmark::State& state) {
  PolicySources sources;
  Guard guard(Engine(loadPolicy(sources)), GuardOptions{});
  const Decision d = guard.decide(gitStatus());
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        toolguard::front::dumpLine(toolguard::front::decisionToJson(d, "Bash")));
  }
}
BENCHMARK(BM_RenderDecisionJson);

// The same bytes written directly (what the C API returns).
void BM_RenderDecisionJsonLine(benchmark::State& state) {
  PolicySources sources;
  Guard guard(Engine(loadPolicy(sources)), GuardOptions{});
  const Decision d = guard.decide(gitStatus());
  for (auto _ : state) benchmark::DoNotOptimize(toolguard::front::decisionJsonLine(d, "Bash"));
}
BENCHMARK(BM_RenderDecisionJsonLine);

}  // namespace
