// The LLM validator's own overhead, the model excluded: building the fenced
// prompt (language detection and skills included), reading the answer, a
// cached answer, and a whole judgement against a loopback server that
// answers at once (HTTP and JSON included, no model).
#include <benchmark/benchmark.h>
#include <httplib.h>

#include <thread>

#include "toolguard/llm_validator.hpp"
#include "toolguard/tool_catalog.hpp"

namespace {

using namespace toolguard;
using nlohmann::json;

ToolCall shellCall() {
  ToolCall call;
  call.tool = "Bash";
  call.args = {{"command", "cd build && python3 tools/gen.py --out ../src/gen.cpp && make -j4"}};
  call.context.cwd = "/work/app";
  call.context.session = "bench";
  return call;
}

LlmSettings settings(const std::string& base_url, int turns) {
  LlmSettings s;
  s.enabled = true;
  s.base_url = base_url;
  s.model = "bench-model";
  s.max_turns = turns;
  return s;
}

void BM_LlmPromptSingleTurn(benchmark::State& state) {
  const ToolCatalog catalog = ToolCatalog::builtin();
  const ToolCall call = shellCall();
  const LlmSettings s = settings("http://127.0.0.1:9/v1", 1);
  for (auto _ : state) {
    const CallView view(call, catalog.resolve(call.tool));
    benchmark::DoNotOptimize(buildLlmPrompt(view, s, {}, {}));
  }
}
BENCHMARK(BM_LlmPromptSingleTurn);

void BM_LlmPromptGuardAgent(benchmark::State& state) {
  const ToolCatalog catalog = ToolCatalog::builtin();
  const GuardSkillLibrary library = GuardSkillLibrary::builtin();
  const ToolCall call = shellCall();
  const LlmSettings s = settings("http://127.0.0.1:9/v1", 5);
  for (auto _ : state) {
    const CallView view(call, catalog.resolve(call.tool));
    std::vector<const GuardSkill*> shown = library.autoInvoked(detectCallLanguages(view));
    std::vector<const GuardSkill*> offered;
    for (const GuardSkill& skill : library.all()) offered.push_back(&skill);
    benchmark::DoNotOptimize(buildLlmPrompt(view, s, shown, offered));
  }
}
BENCHMARK(BM_LlmPromptGuardAgent);

void BM_LlmReplyRead(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(readLlmReply("DENY: it sends the SSH keys to a remote host\n"));
  }
}
BENCHMARK(BM_LlmReplyRead);

// A loopback endpoint that answers every request at once with ALLOW.
class InstantEndpoint {
 public:
  InstantEndpoint() {
    server_.Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
      json body = {
          {"id", "x"},
          {"object", "chat.completion"},
          {"choices", json::array({{{"index", 0},
                                    {"message", {{"role", "assistant"}, {"content", "ALLOW"}}},
                                    {"finish_reason", "stop"}}})}};
      res.set_content(body.dump(), "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~InstantEndpoint() {
    server_.stop();
    thread_.join();
  }
  std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

void BM_LlmJudgeLoopback(benchmark::State& state) {
  InstantEndpoint endpoint;
  const ToolCatalog catalog = ToolCatalog::builtin();
  const ToolCall call = shellCall();
  const LlmValidator validator(settings(endpoint.baseUrl(), 1), GuardSkillLibrary::builtin(),
                               nullptr);
  for (auto _ : state) {
    const CallView view(call, catalog.resolve(call.tool));
    LlmReview j = validator.review(view);
    if (j.verdict != LlmVerdict::Allow) state.SkipWithError(j.reason.c_str());
    benchmark::DoNotOptimize(j);
  }
}
BENCHMARK(BM_LlmJudgeLoopback)->UseRealTime();

// A call judged before in the session: the answer comes from the cache.
void BM_LlmJudgeCached(benchmark::State& state) {
  InstantEndpoint endpoint;
  const ToolCatalog catalog = ToolCatalog::builtin();
  const ToolCall call = shellCall();
  const LlmValidator validator(settings(endpoint.baseUrl(), 1), GuardSkillLibrary::builtin(),
                               memoryLlmVerdictCache());
  validator.review(CallView(call, catalog.resolve(call.tool)));  // the one request
  for (auto _ : state) {
    const CallView view(call, catalog.resolve(call.tool));
    LlmReview j = validator.review(view);
    if (!j.cached) state.SkipWithError("the answer was not cached");
    benchmark::DoNotOptimize(j);
  }
}
BENCHMARK(BM_LlmJudgeCached);

}  // namespace
