#pragma once
// Runs the real toolguard binary with arguments, stdin and extra environment,
// and captures its exit code, stdout and stderr.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/prepared_exec.hpp"

namespace toolguard::testing {

/// How long a run of the binary may take before the test kills it and fails:
/// a hang then names its test instead of stopping the whole test run.
inline constexpr int kRunBinaryLimitSeconds = 600;

/// Waits for `pid`; after `limit_seconds` kills it. The wait status, and
/// whether it had to be killed.
inline std::pair<int, bool> waitWithLimit(pid_t pid, int limit_seconds) {
  int status = 0;
  bool killed = false;
  const int handle = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (handle >= 0) {
    pollfd p{handle, POLLIN, 0};
    int ready = 0;
    while ((ready = ::poll(&p, 1, limit_seconds * 1000)) < 0 && errno == EINTR) {
    }
    if (ready == 0) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
    ::close(handle);
  }
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {status, killed};
}

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs `binary args...` with `input` on stdin and `env` added to (or, with an
/// empty value, removed from) the environment; `cwd` if not empty.
inline RunResult runBinary(const std::string& binary, const std::vector<std::string>& args,
                           const std::string& input = "",
                           const std::map<std::string, std::string>& env = {},
                           const std::string& cwd = "") {
  char in_path[] = "/tmp/toolguard-in-XXXXXX";
  char out_path[] = "/tmp/toolguard-out-XXXXXX";
  char err_path[] = "/tmp/toolguard-err-XXXXXX";
  int in_fd = mkstemp(in_path), out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
  if (in_fd < 0 || out_fd < 0 || err_fd < 0) throw std::runtime_error("mkstemp failed");
  if (write(in_fd, input.data(), input.size()) != static_cast<ssize_t>(input.size())) {
    throw std::runtime_error("write failed");
  }
  lseek(in_fd, 0, SEEK_SET);
  const PreparedExec program(binary, args, env);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    program.exec();
  }
  const auto [status, killed] = waitWithLimit(pid, kRunBinaryLimitSeconds);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  close(in_fd);
  close(out_fd);
  close(err_fd);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  if (killed) {
    r.err += "\n[killed by the test after " + std::to_string(kRunBinaryLimitSeconds) + " s]";
  }
  unlink(in_path);
  unlink(out_path);
  unlink(err_path);
  return r;
}

/// A run, for failure messages: its exit code, stdout and stderr.
inline std::ostream& operator<<(std::ostream& out, const RunResult& r) {
  return out << "exit " << r.exit_code << "\nstdout:\n" << r.out << "stderr:\n" << r.err;
}

/// Whether `name` is a program on the PATH.
inline bool programOnPath(const std::string& name) {
  return runBinary("/bin/sh", {"-c", "command -v '" + name + "' >/dev/null"}).exit_code == 0;
}

/// What `toolguard sandbox --explain` says the kernel offers, or why a
/// sandbox test cannot run on it ("" when it holds every part: Landlock ABI
/// 6 or later, seccomp, unprivileged user namespaces).
inline std::string sandboxKernelShortfall(const std::string& toolguard) {
  RunResult r = runBinary(toolguard, {"sandbox", "--explain", "--no-user", "--no-project",
                                      "--no-managed", "--workspace", "/"});
  const std::string first = r.out.substr(0, r.out.find('\n'));
  if (first.find("seccomp yes") == std::string::npos ||
      first.find("user namespaces yes") == std::string::npos) {
    return "this kernel lacks what the sandbox tests need: " + first;
  }
  const size_t abi = first.find("Landlock ABI ");
  if (abi == std::string::npos || std::atoi(first.c_str() + abi + 13) < 6) {
    return "this kernel lacks what the sandbox tests need: " + first;
  }
  return "";
}

}  // namespace toolguard::testing
