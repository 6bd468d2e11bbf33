// Wall time of one whole `toolguard check` process (start, load the built-in
// policy, decide, print, exit), as a hook runs it.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

const std::string kOneCall =
    R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}})";

// Spawns argv once with stdin read from `input_path` and stdout discarded;
// true when it exited with 0.
bool spawnOnce(const char* const* argv, const char* input_path, char* const* env) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, input_path, O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const bool started =
      posix_spawn(&pid, argv[0], &actions, nullptr, const_cast<char**>(argv), env) == 0;
  posix_spawn_file_actions_destroy(&actions);
  if (!started) return false;
  int status = 0;
  pid_t waited = -1;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  return waited == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// A temporary file holding `input` (removed with it); empty path on failure.
struct InputFile {
  std::string path;
  explicit InputFile(const std::string& input) {
    char name[] = "/tmp/toolguard-bench-XXXXXX";
    const int fd = mkstemp(name);
    if (fd < 0) return;
    const bool written =
        write(fd, input.data(), input.size()) == static_cast<ssize_t>(input.size());
    close(fd);
    if (written) {
      path = name;
    } else {
      unlink(name);
    }
  }
  ~InputFile() {
    if (!path.empty()) unlink(path.c_str());
  }
};

// Spawns argv once per iteration with `input` on stdin and stdout discarded
// (environment: this process's, or `env`).
void spawnLoop(benchmark::State& state, const char* const* argv,
               const std::string& input = kOneCall, char* const* env = environ) {
  const InputFile file(input);
  if (file.path.empty()) {
    state.SkipWithError("cannot write the input file");
    return;
  }
  for (auto _ : state) {
    if (!spawnOnce(argv, file.path.c_str(), env)) {
      state.SkipWithError("the process failed");
      break;
    }
  }
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The check and its floor (`/bin/true`) started in turn, in one loop, so
// that both see the machine as it is at that moment: on a virtual machine
// whose host reclaims memory or runs other guests, a bare start drifts by
// a third within minutes, and two benchmarks run a minute apart compare
// two different machines. The time is the check's; the counters are the
// medians of both (ms) and their ratio.
void checkBesideFloor(benchmark::State& state, const char* const* argv, const std::string& input,
                      char* const* env) {
  const InputFile file(input);
  if (file.path.empty()) {
    state.SkipWithError("cannot write the input file");
    return;
  }
  const char* floor_argv[] = {"/bin/true", nullptr};
  using Clock = std::chrono::steady_clock;
  auto timed = [&](const char* const* args, char* const* environment, double& seconds) {
    const Clock::time_point start = Clock::now();
    const bool ok = spawnOnce(args, file.path.c_str(), environment);
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return ok;
  };
  std::vector<double> floors, checks;
  bool check_first = false;
  for (auto _ : state) {
    double floor_s = 0, check_s = 0;
    // Each goes first every other time, so neither always finds the other's
    // work still settling.
    check_first = !check_first;
    const bool ok = check_first ? timed(argv, env, check_s) && timed(floor_argv, env, floor_s)
                                : timed(floor_argv, env, floor_s) && timed(argv, env, check_s);
    if (!ok) {
      state.SkipWithError("the process failed");
      return;
    }
    state.SetIterationTime(check_s);
    floors.push_back(floor_s);
    checks.push_back(check_s);
  }
  const double floor_ms = median(floors) * 1e3, check_ms = median(checks) * 1e3;
  state.counters["floor_ms"] = floor_ms;
  state.counters["check_ms"] = check_ms;
  state.counters["ratio"] = floor_ms > 0 ? check_ms / floor_ms : 0;
}

// A home whose session "s1" already remembers a web fetch (asked, so
// remembered as it may run), and the environment that finds it.
struct SessionHome {
  std::string root;
  std::vector<std::string> variables;
  std::vector<char*> env;
  std::string write_call;  ///< the session's next call: a Write
  bool ready = false;

  SessionHome() {
    char root_template[] = "/tmp/toolguard-bench-home-XXXXXX";
    root = mkdtemp(root_template);
    variables = {"TOOLGUARD_HOME=" + root + "/home", "HOME=" + root, "PATH=/usr/bin:/bin"};
    for (std::string& v : variables) env.push_back(v.data());
    env.push_back(nullptr);
    const std::string context = R"("context":{"cwd":"/w","agent":"bench","session":"s1"})";
    const std::string fetch =
        R"({"tool":"WebFetch","args":{"url":"https://example.com/","prompt":"x"},)" + context + "}";
    write_call =
        R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},)" + context + "}";
    const std::string first_path = root + "/first.json";
    std::ofstream(first_path) << fetch;
    const std::string command = std::string(TOOLGUARD_BINARY) +
                                " check --no-user --no-project --no-managed < " + first_path +
                                " > /dev/null";
    const std::string prefix = "TOOLGUARD_HOME=" + root + "/home HOME=" + root + " ";
    ready = std::system((prefix + command).c_str()) == 0;
  }
  ~SessionHome() { std::filesystem::remove_all(root); }
};

const char* const kCheckArgv[] = {TOOLGUARD_BINARY, "check",        "--no-user",
                                  "--no-project",   "--no-managed", nullptr};

void BM_CheckProcess(benchmark::State& state) {
  spawnLoop(state, kCheckArgv);
}
BENCHMARK(BM_CheckProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same, started in turn with `/bin/true` (counters: both medians, ratio).
void BM_CheckProcessBesideFloor(benchmark::State& state) {
  checkBesideFloor(state, kCheckArgv, kOneCall, environ);
}
BENCHMARK(BM_CheckProcessBesideFloor)->Unit(benchmark::kMillisecond)->UseManualTime();

// A user policy of 50 rules (shell, files and MCP rules) and a trusted
// project's policy of 10 rules, found from the call's cwd, and the
// environment that finds them (removed with it).
struct UserPolicyHome {
  std::string root;
  std::vector<std::string> variables;
  std::vector<char*> env;
  std::string call;  ///< a Write in the project

  UserPolicyHome() {
    char root_template[] = "/tmp/toolguard-bench-home-XXXXXX";
    root = mkdtemp(root_template);
    const std::string user = root + "/config", project = root + "/project";
    std::filesystem::create_directories(user);
    std::filesystem::create_directories(project + "/.toolguard");
    std::string rules;
    for (int i = 0; i < 50; ++i) {
      const std::string n = std::to_string(i);
      if (i % 3 == 0) {
        rules += "  - id: user-" + n + "\n    tool: Bash\n    command: {glob: 'tool" + n +
                 " *'}\n    verdict: ask\n    reason: tool " + n + " needs a look\n";
      } else if (i % 3 == 1) {
        rules += "  - id: user-" + n + "\n    files: ['**/secret" + n + "/**', '*.key" + n +
                 "']\n    verdict: deny\n    reason: secret " + n + "\n";
      } else {
        rules += "  - id: user-" + n + "\n    tool: mcp__srv" + n + "__*\n    verdict: allow\n";
      }
    }
    std::ofstream(user + "/policy.yaml")
        << "version: 1\ntrusted_projects: [" << project << "]\nrules:\n"
        << rules;
    std::string project_rules;
    for (int i = 0; i < 10; ++i) {
      project_rules += "  - id: project-" + std::to_string(i) + "\n    files: ['./generated" +
                       std::to_string(i) + "/**']\n    verdict: deny\n";
    }
    std::ofstream(project + "/.toolguard/policy.yaml") << "version: 1\nrules:\n" << project_rules;
    call = R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":")" +
           project + R"("}})";
    variables = {"TOOLGUARD_CONFIG_DIR=" + user, "TOOLGUARD_HOME=" + root + "/home", "HOME=" + root,
                 "PATH=/usr/bin:/bin"};
    for (std::string& v : variables) env.push_back(v.data());
    env.push_back(nullptr);
  }
  ~UserPolicyHome() { std::filesystem::remove_all(root); }
};

const char* const kCheckManagedOffArgv[] = {TOOLGUARD_BINARY, "check", "--no-managed", nullptr};

// One `toolguard check` under UserPolicyHome's policies (their trees read
// from the cache from the second call on, as a hook's later calls do).
void BM_CheckProcessUserPolicy(benchmark::State& state) {
  const UserPolicyHome home;
  spawnLoop(state, kCheckManagedOffArgv, home.call, home.env.data());
}
BENCHMARK(BM_CheckProcessUserPolicy)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same, started in turn with `/bin/true` (counters: both medians, ratio).
void BM_CheckProcessUserPolicyBesideFloor(benchmark::State& state) {
  const UserPolicyHome home;
  checkBesideFloor(state, kCheckManagedOffArgv, home.call, home.env.data());
}
BENCHMARK(BM_CheckProcessUserPolicyBesideFloor)->Unit(benchmark::kMillisecond)->UseManualTime();

// One `toolguard check` of a call that names its session, in a session that
// already remembers a web fetch: the process loads the session's file,
// works out the call's labels and appends it (the worst case; a session
// with nothing labelled writes nothing).
void BM_CheckProcessWithSession(benchmark::State& state) {
  SessionHome home;
  if (!home.ready) {
    state.SkipWithError("the first call failed");
    return;
  }
  spawnLoop(state, kCheckArgv, home.write_call, home.env.data());
}
BENCHMARK(BM_CheckProcessWithSession)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same, started in turn with `/bin/true` (counters: both medians, ratio).
void BM_CheckProcessWithSessionBesideFloor(benchmark::State& state) {
  SessionHome home;
  if (!home.ready) {
    state.SkipWithError("the first call failed");
    return;
  }
  checkBesideFloor(state, kCheckArgv, home.write_call, home.env.data());
}
BENCHMARK(BM_CheckProcessWithSessionBesideFloor)->Unit(benchmark::kMillisecond)->UseManualTime();

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

// The floor of any launcher: a program that does nothing but exec the
// command (`env /bin/true`), two program starts instead of one.
void BM_SpawnTrueThroughEnv(benchmark::State& state) {
  const char* argv[] = {"/usr/bin/env", "/bin/true", nullptr};
  spawnLoop(state, argv);
}
BENCHMARK(BM_SpawnTrueThroughEnv)->Unit(benchmark::kMillisecond)->UseRealTime();

// `true` run by `toolguard sandbox` (the default policy's confinement: a
// private user, mount and network namespace, Landlock, seccomp) in a small
// workspace, against the bare start above.
void BM_SandboxedTrueProcess(benchmark::State& state) {
  char workspace[] = "/tmp/toolguard-bench-ws-XXXXXX";
  if (mkdtemp(workspace) == nullptr) {
    state.SkipWithError("cannot make the workspace");
    return;
  }
  std::ofstream(std::string(workspace) + "/README.md") << "a workspace\n";
  const char* argv[] = {TOOLGUARD_BINARY, "sandbox", "--no-user", "--no-project", "--no-managed",
                        "--workspace",    workspace, "--",        "/bin/true",    nullptr};
  spawnLoop(state, argv);
  std::filesystem::remove_all(workspace);
}
BENCHMARK(BM_SandboxedTrueProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SpawnToolguardVersion(benchmark::State& state) {
  const char* argv[] = {TOOLGUARD_BINARY, "--version", nullptr};
  spawnLoop(state, argv);
}
BENCHMARK(BM_SpawnToolguardVersion)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
