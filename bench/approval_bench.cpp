// What a decision pays after the engine: the session cache, the approval
// store lookup, and the audit write. Compare each with BM_AskEngineOnly.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "bench_temp_home.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_builder.hpp"

namespace {

using namespace toolguard;

Engine askingEngine() {
  return PolicyBuilder().requireApproval("deploy").build();
}

ToolCall deployCall() {
  ToolCall call;
  call.tool = "deploy";
  call.args = {{"service", "api"}, {"region", "eu-west-1"}, {"replicas", 3}};
  call.context.cwd = "/work/app";
  call.context.session = "bench-session";
  call.context.agent = "bench-agent";
  return call;
}

using bench::tempHome;

// The engine alone: the ask the rest settles.
void BM_AskEngineOnly(benchmark::State& state) {
  Engine engine = askingEngine();
  ToolCall call = deployCall();
  for (auto _ : state) benchmark::DoNotOptimize(engine.decide(call));
}
BENCHMARK(BM_AskEngineOnly);

// The ask settled by an "always allow this exact call" in the session cache.
void BM_AskSettledBySessionCache(benchmark::State& state) {
  Guard guard(askingEngine());
  ToolCall call = deployCall();
  ApprovalEntry entry{"deploy",
                      ApprovalBinding::ExactCall,
                      approvalKey(call),
                      ApprovalScope::Session,
                      call.context.session,
                      "",
                      "",
                      ""};
  guard.sessionApprovals().add(entry);
  for (auto _ : state) {
    Decision d = guard.decide(call);
    if (d.verdict != Verdict::Allow) state.SkipWithError("not allowed");
  }
}
BENCHMARK(BM_AskSettledBySessionCache);

// The ask settled by the store: `state.range(0)` other entries in the global
// file, the matching one in the project file; files unchanged between calls.
void BM_AskSettledByStore(benchmark::State& state) {
  std::string home = tempHome();
  auto store = std::make_shared<ApprovalStore>(home);
  for (int64_t i = 0; i < state.range(0); ++i) {
    store->add({"tool_" + std::to_string(i), ApprovalBinding::Tool, "", ApprovalScope::Global, "",
                "", "", ""});
  }
  ToolCall call = deployCall();
  // rule "*": answers the ask of the requireApproval rule
  store->add(
      {"deploy", ApprovalBinding::Tool, "", ApprovalScope::Project, "/work/app", "", "", "*"});
  GuardOptions options;
  options.store = store;
  Guard guard(askingEngine(), options);
  for (auto _ : state) {
    Decision d = guard.decide(call);
    if (d.verdict != Verdict::Allow) state.SkipWithError("not allowed");
  }
  std::filesystem::remove_all(home);
}
BENCHMARK(BM_AskSettledByStore)->Arg(0)->Arg(100);

// Every decision appended to the audit log (an allow, so nothing else runs).
void BM_DecisionWithAuditWrite(benchmark::State& state) {
  std::string home = tempHome();
  AuditLogOptions log;
  log.path = home + "/audit.jsonl";
  log.max_bytes = std::uint64_t{1} << 40;
  GuardOptions options;
  options.audit_log = std::make_shared<AuditLog>(log);
  Guard guard(PolicyBuilder().allow("deploy").build(), options);
  ToolCall call = deployCall();
  for (auto _ : state) benchmark::DoNotOptimize(guard.decide(call));
  std::filesystem::remove_all(home);
}
BENCHMARK(BM_DecisionWithAuditWrite);

// The same decision without the log, for the difference.
void BM_DecisionWithoutAudit(benchmark::State& state) {
  Guard guard(PolicyBuilder().allow("deploy").build());
  ToolCall call = deployCall();
  for (auto _ : state) benchmark::DoNotOptimize(guard.decide(call));
}
BENCHMARK(BM_DecisionWithoutAudit);

}  // namespace
