// Wall time of one whole `toolguard check` process (start, load the built-in
// policy, decide, print, exit), as a hook runs it.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

const std::string kOneCall =
    R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}})";

// Spawns argv once per iteration with `input` on stdin and stdout discarded
// (environment: this process's, or `env`).
void spawnLoop(benchmark::State& state, const char* const* argv,
               const std::string& input = kOneCall, char* const* env = environ) {
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
    if (posix_spawn(&pid, argv[0], &actions, nullptr, const_cast<char**>(argv), env) != 0) {
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

// The same with a user policy of 50 rules (shell, files and MCP rules) and a
// trusted project's policy of 10 rules, found from the call's cwd.
void BM_CheckProcessUserPolicy(benchmark::State& state) {
  char root_template[] = "/tmp/toolguard-bench-home-XXXXXX";
  const std::string root = mkdtemp(root_template);
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
  const std::string call =
      R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":")" +
      project + R"("}})";
  std::vector<std::string> variables = {"TOOLGUARD_CONFIG_DIR=" + user,
                                        "TOOLGUARD_HOME=" + root + "/home", "HOME=" + root,
                                        "PATH=/usr/bin:/bin"};
  std::vector<char*> env;
  for (std::string& v : variables) env.push_back(v.data());
  env.push_back(nullptr);
  const char* argv[] = {TOOLGUARD_BINARY, "check", "--no-managed", nullptr};
  spawnLoop(state, argv, call, env.data());
  std::filesystem::remove_all(root);
}
BENCHMARK(BM_CheckProcessUserPolicy)->Unit(benchmark::kMillisecond)->UseRealTime();

// One `toolguard check` of a call that names its session, in a session that
// already remembers a web fetch: the process loads the session's file,
// works out the call's labels and appends it (the worst case; a session
// with nothing labelled writes nothing).
void BM_CheckProcessWithSession(benchmark::State& state) {
  char root_template[] = "/tmp/toolguard-bench-home-XXXXXX";
  const std::string root = mkdtemp(root_template);
  std::vector<std::string> variables = {"TOOLGUARD_HOME=" + root + "/home", "HOME=" + root,
                                        "PATH=/usr/bin:/bin"};
  std::vector<char*> env;
  for (std::string& v : variables) env.push_back(v.data());
  env.push_back(nullptr);
  const char* argv[] = {TOOLGUARD_BINARY, "check",        "--no-user",
                        "--no-project",   "--no-managed", nullptr};
  const std::string context = R"("context":{"cwd":"/w","agent":"bench","session":"s1"})";
  const std::string fetch =
      R"({"tool":"WebFetch","args":{"url":"https://example.com/","prompt":"x"},)" + context + "}";
  const std::string write =
      R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},)" + context + "}";
  // The session's first call: a web fetch (asked, so remembered as it may run).
  const std::string first_path = root + "/first.json";
  std::ofstream(first_path) << fetch;
  const std::string command = std::string(TOOLGUARD_BINARY) + " check --no-user --no-project " +
                              "--no-managed < " + first_path + " > /dev/null";
  const std::string prefix = "TOOLGUARD_HOME=" + root + "/home HOME=" + root + " ";
  if (std::system((prefix + command).c_str()) != 0) {
    state.SkipWithError("the first call failed");
    return;
  }
  spawnLoop(state, argv, write, env.data());
  std::filesystem::remove_all(root);
}
BENCHMARK(BM_CheckProcessWithSession)->Unit(benchmark::kMillisecond)->UseRealTime();

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
