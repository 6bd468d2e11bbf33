#pragma once
// Internal: the MCP server as a child process with its stdin and stdout on
// pipes and its stderr shared with ours.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace toolguard::mcp {

/// A running child process. Destroying it stops it (see stop()) and reaps it,
/// so no zombie is left behind.
class ChildProcess {
 public:
  /// Starts argv (argv[0] looked up in PATH) with default signal
  /// dispositions and an empty signal mask. Throws std::system_error naming
  /// the command when it cannot be started.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  int stdinFd() const { return stdin_fd_; }    ///< write end of the child's stdin (-1 once closed)
  int stdoutFd() const { return stdout_fd_; }  ///< read end of the child's stdout
  pid_t pid() const { return pid_; }

  /// Closes the child's stdin (the MCP way of asking a server to stop).
  void closeStdin();
  /// Hands the write end of the child's stdin to the caller, who closes it.
  int releaseStdin();
  /// Closes our end of the child's stdout.
  void closeStdout();
  /// The wait status once the child has exited (reaped), else nullopt after
  /// waiting up to `timeout`.
  std::optional<int> waitFor(std::chrono::milliseconds timeout);
  /// Stops the child as the MCP stdio transport says: close its stdin, wait
  /// `grace`, SIGTERM, wait `grace`, SIGKILL; returns the wait status.
  int stop(std::chrono::milliseconds grace);
  /// True when stop() had to send a signal.
  bool wasSignalled() const { return signalled_; }

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::optional<int> status_;
  bool signalled_ = false;
};

/// "exit code 3", "killed by signal 9 (Killed)".
std::string describeWaitStatus(int status);
/// The exit code a shell would report: the code, or 128 + the signal.
int exitCodeOf(int status);

}  // namespace toolguard::mcp
