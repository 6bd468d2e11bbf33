// Path resolution: resolvePath on a real tree, and a file write judged by the
// default policy when the path crosses a symlink.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "toolguard/engine.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace {

namespace fs = std::filesystem;

// A workspace five directories deep with a symlink in the middle, made once.
struct Tree {
  Tree() {
    std::string pattern = (fs::temp_directory_path() / "toolguard-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    root = pattern;
    workspace = root + "/home/user/code/project";
    fs::create_directories(workspace + "/src/module/deep");
    fs::create_directory_symlink("src/module", workspace + "/mod");
  }
  ~Tree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string root;
  std::string workspace;
};

const Tree& tree() {
  static const Tree instance;
  return instance;
}

void BM_ResolvePathExisting(benchmark::State& state) {
  const Tree& t = tree();
  for (auto _ : state) {
    benchmark::DoNotOptimize(resolvePath(t.workspace, "src/module/deep/new_file.cpp"));
  }
}
BENCHMARK(BM_ResolvePathExisting);

void BM_ResolvePathThroughSymlink(benchmark::State& state) {
  const Tree& t = tree();
  for (auto _ : state) {
    benchmark::DoNotOptimize(resolvePath(t.workspace, "mod/deep/new_file.cpp"));
  }
}
BENCHMARK(BM_ResolvePathThroughSymlink);

void BM_DecideFileWriteOnRealTree(benchmark::State& state) {
  const Tree& t = tree();
  const Engine engine(loadPolicy(PolicySources{}));
  ToolCall call;
  call.tool = "Write";
  call.args = {{"file_path", "mod/deep/new_file.cpp"}, {"content", "int x;"}};
  call.context.cwd = t.workspace;
  for (auto _ : state) benchmark::DoNotOptimize(engine.decide(call));
}
BENCHMARK(BM_DecideFileWriteOnRealTree);

}  // namespace
}  // namespace toolguard
