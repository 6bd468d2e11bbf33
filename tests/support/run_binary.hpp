#pragma once
// Runs the real toolguard binary with arguments, stdin and extra environment,
// and captures its exit code, stdout and stderr.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace toolguard::testing {

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
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    for (const auto& [k, v] : env) {
      if (v.empty()) {
        unsetenv(k.c_str());
      } else {
        setenv(k.c_str(), v.c_str(), 1);
      }
    }
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  close(in_fd);
  close(out_fd);
  close(err_fd);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  unlink(in_path);
  unlink(out_path);
  unlink(err_path);
  return r;
}

}  // namespace toolguard::testing
