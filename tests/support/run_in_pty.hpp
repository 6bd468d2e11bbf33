#pragma once
// Runs the real toolguard binary with a pseudo-terminal as its controlling
// terminal (so /dev/tty is the pty) while stdin and stdout are pipes, as
// when an agent runs a hook. The test plays the person: it waits for text
// on the terminal and types keys.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/prepared_exec.hpp"

namespace toolguard::testing {

/// A running process on a pseudo-terminal.
class PtySession {
 public:
  /// Starts `binary args...` with `input` on its stdin (a pipe), its stdout
  /// and stderr captured (pipes), the pty slave as controlling terminal.
  PtySession(const std::string& binary, const std::vector<std::string>& args,
             const std::string& input, const std::map<std::string, std::string>& env,
             const std::string& cwd) {
    master_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) {
      throw std::runtime_error("no pseudo-terminal");
    }
    std::string slave_name = ptsname(master_);
    int in_pipe[2], out_pipe[2], err_pipe[2];
    if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
      throw std::runtime_error("pipe failed");
    }
    const PreparedExec program(binary, args, env);
    pid_ = fork();
    if (pid_ == 0) {
      setsid();
      int slave = open(slave_name.c_str(), O_RDWR);  // becomes the controlling terminal
      if (slave < 0) _exit(126);
      ioctl(slave, TIOCSCTTY, 0);
      dup2(in_pipe[0], 0);
      dup2(out_pipe[1], 1);
      dup2(err_pipe[1], 2);
      for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
        close(fd);  // or stdin never ends: this process would hold its write end
      }
      close(slave);
      close(master_);
      if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
      program.exec();
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    out_fd_ = out_pipe[0];
    err_fd_ = err_pipe[0];
    if (write(in_pipe[1], input.data(), input.size()) != static_cast<ssize_t>(input.size())) {
      throw std::runtime_error("writing stdin failed");
    }
    close(in_pipe[1]);
  }

  ~PtySession() {
    if (pid_ > 0 && !finished_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    for (int fd : {master_, out_fd_, err_fd_}) {
      if (fd >= 0) close(fd);
    }
  }

  /// Reads the terminal until `text` has appeared (or `timeout` passes).
  /// Returns true when it appeared.
  bool waitFor(const std::string& text,
               std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (screen_.find(text, scanned_) == std::string::npos) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      // Before the child opens the slave (and after it closes it) the master
      // reports a hang-up; wait and look again.
      if (!readTerminal(static_cast<int>(std::min<int64_t>(left.count(), 100)))) usleep(10000);
    }
    scanned_ = screen_.find(text, scanned_) + text.size();
    return true;
  }

  /// Types bytes on the terminal.
  void type(const std::string& keys) {
    // Let the prompt switch the terminal to single-key mode first.
    for (int i = 0; i < 100; ++i) {
      termios mode{};
      if (tcgetattr(master_, &mode) == 0 && !(mode.c_lflag & ICANON)) break;
      usleep(10000);
    }
    if (write(master_, keys.data(), keys.size()) != static_cast<ssize_t>(keys.size())) {
      throw std::runtime_error("typing failed");
    }
  }

  /// Hangs up the terminal (the person goes away).
  void hangUp() {
    close(master_);
    master_ = -1;
  }

  /// Waits for the process to end; its exit code, stdout and stderr.
  int finish(std::string& out, std::string& err) {
    out = drain(out_fd_);
    err = drain(err_fd_);
    int status = 0;
    waitpid(pid_, &status, 0);
    finished_ = true;
    if (master_ >= 0) {
      while (readTerminal(50)) {
      }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  /// Everything the process wrote on the terminal so far.
  const std::string& screen() const { return screen_; }

 private:
  bool readTerminal(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    char buffer[4096];
    ssize_t n = read(master_, buffer, sizeof buffer);
    if (n <= 0) return false;
    screen_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  static std::string drain(int fd) {
    std::string text;
    char buffer[4096];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
    return text;
  }

  int master_ = -1, out_fd_ = -1, err_fd_ = -1;
  pid_t pid_ = -1;
  bool finished_ = false;
  std::string screen_;
  size_t scanned_ = 0;
};

}  // namespace toolguard::testing
