// Starting, stopping and reaping the MCP server process.
#include "mcp/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

extern char** environ;

namespace toolguard::mcp {
namespace {

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// Closes a spawn's resources whatever happens.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
};

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::system_error(EINVAL, std::generic_category(), "no server command");
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    int error = errno;
    for (int fd : {in[0], in[1], out[0], out[1]}) {
      if (fd >= 0) ::close(fd);
    }
    throw std::system_error(error, std::generic_category(), "cannot create pipes for the server");
  }
  SpawnSetup setup;
  posix_spawn_file_actions_adddup2(&setup.actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, out[1], STDOUT_FILENO);
  // The proxy ignores SIGPIPE and catches the stop signals; the server starts clean.
  sigset_t reset;
  sigset_t none;
  sigemptyset(&reset);
  for (int sig : {SIGPIPE, SIGHUP, SIGINT, SIGTERM, SIGQUIT}) sigaddset(&reset, sig);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&setup.attributes, &reset);
  posix_spawnattr_setsigmask(&setup.attributes, &none);
  posix_spawnattr_setflags(&setup.attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  int error = posix_spawnp(&pid_, args[0], &setup.actions, &setup.attributes, args.data(), environ);
  ::close(in[0]);
  ::close(out[1]);
  if (error != 0) {
    ::close(in[1]);
    ::close(out[0]);
    pid_ = -1;
    throw std::system_error(error, std::generic_category(), "cannot start " + argv[0]);
  }
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !status_) stop(std::chrono::milliseconds(500));
  closeFd(stdin_fd_);
  closeFd(stdout_fd_);
}

void ChildProcess::closeStdin() {
  closeFd(stdin_fd_);
}

int ChildProcess::releaseStdin() {
  int fd = stdin_fd_;
  stdin_fd_ = -1;
  return fd;
}

void ChildProcess::closeStdout() {
  closeFd(stdout_fd_);
}

std::optional<int> ChildProcess::waitFor(std::chrono::milliseconds timeout) {
  if (status_) return status_;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    int status = 0;
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      status_ = status;
      return status_;
    }
    if (done < 0 && errno != EINTR) {  // not our child any more: nothing left to reap
      status_ = 0;
      return status_;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
  closeStdin();
  if (auto status = waitFor(grace)) return *status;
  signalled_ = true;
  ::kill(pid_, SIGTERM);
  if (auto status = waitFor(grace)) return *status;
  ::kill(pid_, SIGKILL);
  return *waitFor(std::chrono::hours(1));
}

std::string describeWaitStatus(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return "wait status " + std::to_string(status);
}

int exitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace toolguard::mcp
