// What the registry adds to a tool call: the decision, the filters and the
// audit write, against calling the tool's function directly.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "toolguard/policy_builder.hpp"
#include "toolguard/tool_registry.hpp"

namespace {

using namespace toolguard;
using nlohmann::json;

ToolInfo searchTool() {
  ToolInfo info;
  info.name = "search_docs";
  info.description = "search the documentation";
  info.policy = ToolPolicy::Allow;
  info.metadata.read_only = true;
  info.input_schema = {
      {"type", "object"},
      {"properties", {{"query", {{"type", "string"}}}, {"limit", {{"type", "integer"}}}}},
      {"required", {"query"}}};
  return info;
}

// A small but real tool body: builds a result from the arguments.
json searchDocs(const json& args) {
  return json{{"query", args.at("query")}, {"hits", json::array({"intro.md", "api.md"})}};
}

ToolCall searchCall() {
  ToolCall call;
  call.tool = "search_docs";
  call.args = {{"query", "rate limits"}, {"limit", 5}};
  call.context.cwd = "/work/app";
  call.context.session = "bench-session";
  return call;
}

std::unique_ptr<ToolRegistry> registryWith(GuardOptions options) {
  auto registry = std::make_unique<ToolRegistry>(PolicyBuilder().profile("default").buildPolicy(),
                                                 std::move(options));
  registry->registerTool(searchTool(), [](const ToolInvocation& invocation) {
    return searchDocs(invocation.call.args);
  });
  return registry;
}

// The baseline: the function alone.
void BM_ToolDirect(benchmark::State& state) {
  ToolCall call = searchCall();
  for (auto _ : state) benchmark::DoNotOptimize(searchDocs(call.args));
}
BENCHMARK(BM_ToolDirect);

// Decision (default profile, schema) + the function, no filters, no audit.
void BM_ToolViaRegistry(benchmark::State& state) {
  auto registry = registryWith({});
  ToolCall call = searchCall();
  for (auto _ : state) benchmark::DoNotOptimize(registry->executeTool(call));
}
BENCHMARK(BM_ToolViaRegistry);

// The same with the usual filters: logging (to a no-op sink), secret
// redaction of the result and an output cap.
void BM_ToolViaRegistryWithFilters(benchmark::State& state) {
  auto registry = registryWith({});
  registry->addInvocationFilter(loggingFilter([](const InvocationRecord&) {}));
  registry->addResultFilter(secretRedactionFilter());
  registry->addResultFilter(outputCapFilter(64 * 1024));
  ToolCall call = searchCall();
  for (auto _ : state) benchmark::DoNotOptimize(registry->executeTool(call));
}
BENCHMARK(BM_ToolViaRegistryWithFilters);

// Filters plus an audit log line per call (a real file, appended).
void BM_ToolViaRegistryWithFiltersAndAudit(benchmark::State& state) {
  std::string pattern = (std::filesystem::temp_directory_path() / "tg-bench-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  GuardOptions options;
  AuditLogOptions audit;
  audit.path = pattern + "/audit.jsonl";
  options.audit_log = std::make_shared<AuditLog>(audit);
  auto registry = registryWith(options);
  registry->addInvocationFilter(loggingFilter([](const InvocationRecord&) {}));
  registry->addResultFilter(secretRedactionFilter());
  registry->addResultFilter(outputCapFilter(64 * 1024));
  ToolCall call = searchCall();
  for (auto _ : state) benchmark::DoNotOptimize(registry->executeTool(call));
  std::filesystem::remove_all(pattern);
}
BENCHMARK(BM_ToolViaRegistryWithFiltersAndAudit);

}  // namespace
