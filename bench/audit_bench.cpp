// The audit's costs: a hook's one chained write (a new writer each time, so
// the previous hash is read from the file's end, as in a `check` process),
// a page of the last 200 records over a log of 300,000, and the chain's
// walk per record. Compare the hook write with BM_DecisionWithAuditWrite
// (one writer, the hash kept between writes).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>

#include "bench_temp_home.hpp"
#include "toolguard/audit_chain.hpp"
#include "toolguard/audit_log.hpp"

namespace {

using namespace toolguard;
using nlohmann::json;

json sampleRecord(int n) {
  return {{"time", "2026-11-23T10:00:00.000Z"},
          {"id", "0123456789abcdef0123456789abcdef"},
          {"tool", "Bash"},
          {"args", {{"command", "ls -la src/" + std::to_string(n)}}},
          {"context", {{"cwd", "/work/app"}, {"mode", "headless"}}},
          {"verdict", "allow"},
          {"policy_verdict", "allow"},
          {"reason", "no rule matched"},
          {"basis", "default"}};
}

// A new AuditLog per record: open, lock, read the last line, hash, write.
void BM_AuditWriteAsAHookProcess(benchmark::State& state) {
  const std::string home = bench::tempHome();
  AuditLogOptions options{home + "/audit.jsonl", std::uint64_t{1} << 40};
  const json record = sampleRecord(1);
  for (auto _ : state) {
    AuditLog log(options);
    log.writeRecord(record);
  }
  std::filesystem::remove_all(home);
}
BENCHMARK(BM_AuditWriteAsAHookProcess);

// The log a large service writes: 300,000 records, read once per page.
const std::string& largeLog() {
  static const std::string path = [] {
    const std::string home = bench::tempHome();
    AuditLog log({home + "/audit.jsonl", std::uint64_t{1} << 40});
    for (int i = 0; i < 300000; ++i) log.writeRecord(sampleRecord(i));
    return home + "/audit.jsonl";
  }();
  return path;
}

// The web queue's History page: the last 200 records.
void BM_AuditPageOfTheLast200(benchmark::State& state) {
  const std::string& path = largeLog();
  AuditQuery query;
  query.last = 200;
  for (auto _ : state) benchmark::DoNotOptimize(readAuditLog(path, query));
}
BENCHMARK(BM_AuditPageOfTheLast200)->Unit(benchmark::kMillisecond);

// `audit verify` over the whole log, per record.
void BM_AuditVerifyPerRecord(benchmark::State& state) {
  const std::string& path = largeLog();
  for (auto _ : state) {
    AuditChainReport report = verifyAuditLog(path);
    if (!report.ok()) state.SkipWithError("the chain is broken");
    state.SetItemsProcessed(state.items_processed() + static_cast<int64_t>(report.records));
  }
}
BENCHMARK(BM_AuditVerifyPerRecord)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
