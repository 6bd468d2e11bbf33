// What reading a call strictly (parseStrictJson: duplicate keys refused,
// nesting bounded) costs against nlohmann's plain parse and the depth-bounded
// parse with a callback that `check` used before: a typical 200-byte hook
// input, and 1 MiB inputs (one large string; 15,500 small objects).
#include <benchmark/benchmark.h>

#include "toolguard/strict_json.hpp"

namespace {

using nlohmann::json;

const std::string& typicalHookInput() {
  static const std::string text =
      R"({"session_id":"7f3c2a","cwd":"/home/me/app","hook_event_name":"PreToolUse",)"
      R"("permission_mode":"default","tool_name":"Bash","tool_input":{"command":)"
      R"("git status && make -j4 test 2>&1 | tail -n 20","description":"run the tests"}})";
  return text;
}

const std::string& largeString() {
  static const std::string text = [] {
    json call = {{"tool", "Write"},
                 {"args", {{"file_path", "src/big.txt"}, {"content", std::string(1 << 20, 'x')}}}};
    return call.dump();
  }();
  return text;
}

const std::string& manyObjects() {
  static const std::string text = [] {
    json edits = json::array();
    for (int i = 0; edits.dump().size() < (1 << 20); ++i) {
      for (int j = 0; j < 100; ++j) {
        edits.push_back({{"oldText", "line " + std::to_string(i * 100 + j)},
                         {"newText", "changed line " + std::to_string(i * 100 + j)},
                         {"index", i * 100 + j}});
      }
    }
    return json({{"tool", "Edit"}, {"args", {{"file_path", "a.txt"}, {"edits", edits}}}}).dump();
  }();
  return text;
}

const std::string& input(int which) {
  switch (which) {
    case 0:
      return typicalHookInput();
    case 1:
      return largeString();
    default:
      return manyObjects();
  }
}

void setLabel(benchmark::State& state) {
  const std::string& text = input(static_cast<int>(state.range(0)));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.SetLabel(std::to_string(text.size()) + " bytes");
}

void BM_JsonParsePlain(benchmark::State& state) {
  const std::string& text = input(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(json::parse(text));
  setLabel(state);
}

struct TooDeep {};

void BM_JsonParseDepthCallback(benchmark::State& state) {
  const std::string& text = input(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(json::parse(text, [](int depth, json::parse_event_t, json&) {
      if (depth > 67) throw TooDeep{};
      return true;
    }));
  }
  setLabel(state);
}

void BM_JsonParseStrict(benchmark::State& state) {
  const std::string& text = input(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    toolguard::StrictJson parsed = toolguard::parseStrictJson(text);
    if (!parsed.value) state.SkipWithError(parsed.error.c_str());
    benchmark::DoNotOptimize(parsed);
  }
  setLabel(state);
}

// 0: a 200-byte hook input; 1: 1 MiB in one string; 2: 1 MiB of small objects.
BENCHMARK(BM_JsonParsePlain)->DenseRange(0, 2);
BENCHMARK(BM_JsonParseDepthCallback)->DenseRange(0, 2);
BENCHMARK(BM_JsonParseStrict)->DenseRange(0, 2);

}  // namespace
