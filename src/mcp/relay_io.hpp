#pragma once
// Internal: what every front of the MCP proxy needs around its relay loop:
// the stop signals, a pipe that wakes a poll loop from another thread,
// whole lines to stderr, and reading what a descriptor has.
#include <array>
#include <csignal>
#include <string>

namespace toolguard::mcp {

/// Installs handlers for the stop signals (SIGTERM, SIGINT, SIGHUP), which
/// make fd() readable, and ignores SIGPIPE (a peer that went away is an
/// error to report, not a reason to die), for its lifetime. One at a time.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  /// Readable once a stop signal came.
  int fd() const;
  /// Empties fd().
  void drain() const;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGTERM, SIGINT, SIGHUP};
  std::array<struct sigaction, 3> previous_{};
  struct sigaction previous_pipe_ {};
};

/// A non-blocking pipe that wakes a poll loop: wake() from any thread.
class WakePipe {
 public:
  WakePipe();
  ~WakePipe();
  WakePipe(const WakePipe&) = delete;
  WakePipe& operator=(const WakePipe&) = delete;
  int readFd() const { return fds_[0]; }
  void wake();
  void drain();

 private:
  int fds_[2] = {-1, -1};
};

/// Writes `message` and a newline to stderr as one line (lines of several
/// threads never interleave).
void logLine(const std::string& message);

/// Reads what `fd` has into `buffer` (up to 64 KiB); false at the end of the
/// stream or on an error.
bool readSome(int fd, std::string& buffer);

}  // namespace toolguard::mcp
