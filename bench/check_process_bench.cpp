// Wall time of one whole `toolguard check` process (start, load the built-in
// policy, decide, print, exit), as a hook runs it.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

extern char** environ;

namespace {

const std::string kOneCall =
    R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}})";

// Spawns argv once per iteration with `input` on stdin and stdout discarded.
void spawnLoop(benchmark::State& state, const char* const* argv,
               const std::string& input = kOneCall) {
  char input_path[] = "/tmp/toolguard-bench-XXXXXX";
  int fd = mkstemp(input_path);
  if (fd < 0 || write(fd, input.data(), input.size()) != static_cast<ssize_t>(input.size())) {
    state.SkipWithError("cannot write the input file");
    return;
  }
  close(fd);
  for (auto _ : state) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, input_path, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, const_cast<char**>(argv), environ) != 0) {
      state.SkipWithError("cannot start the process");
      break;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("the process failed");
      break;
    }
  }
  unlink(input_path);
}
void BM_CheckProcess(benchmark::State& state) {
  const char* argv[] = {TOOLGUARD_BINARY, "check",        "--no-user",
                        "--no-project",   "--no-managed", nullptr};
  spawnLoop(state, argv);
}
BENCHMARK(BM_CheckProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

// Throughput of one `toolguard check --batch` process over 2,000 JSON lines
// (a mix of file and shell calls).
void BM_CheckBatchThroughput(benchmark::State& state) {
  const char* lines[] = {
      R"({"tool":"Bash","args":{"command":"git status && make -j4 test | tail -20"},"context":{"cwd":"/w"}})",
      R"({"tool":"Bash","args":{"command":"echo ok; rm -rf ~"},"context":{"cwd":"/w"}})",
      R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}})",
      R"({"tool":"Read","args":{"file_path":"~/.ssh/id_rsa"},"context":{"cwd":"/w"}})"};
  constexpr int kLines = 2000;
  std::string input;
  for (int i = 0; i < kLines; ++i) input += std::string(lines[i % 4]) + "\n";
  const char* argv[] = {TOOLGUARD_BINARY, "check",        "--batch", "--no-user",
                        "--no-project",   "--no-managed", nullptr};
  spawnLoop(state, argv, input);
  state.SetItemsProcessed(state.iterations() * kLines);
}
BENCHMARK(BM_CheckBatchThroughput)->Unit(benchmark::kMillisecond)->UseRealTime();

// The floor: starting a process that does nothing, on the same machine.
void BM_SpawnTrueProcess(benchmark::State& state) {
  const char* argv[] = {"/bin/true", nullptr};
  spawnLoop(state, argv);
}
BENCHMARK(BM_SpawnTrueProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SpawnToolguardVersion(benchmark::State& state) {
  const char* argv[] = {TOOLGUARD_BINARY, "--version", nullptr};
  spawnLoop(state, argv);
}
BENCHMARK(BM_SpawnToolguardVersion)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
