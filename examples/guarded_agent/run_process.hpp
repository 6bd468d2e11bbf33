#pragma once
// Running a shell command with a time limit and a cap on what it prints.

#include <chrono>
#include <string>

namespace guarded_agent {

/// What a finished (or stopped) command came to.
struct ProcessResult {
  int exit_code = -1;  ///< the command's exit status; -1 when it was killed
  std::string output;  ///< stdout and stderr, interleaved, at most the cap
  bool timed_out = false;
  bool truncated = false;  ///< the command printed more than the cap
};

/// Runs `command` with /bin/sh -c in `cwd`; kills it (and its process
/// group) after `timeout`. Throws std::runtime_error when it cannot start.
ProcessResult runShellCommand(const std::string& command, const std::string& cwd,
                              std::chrono::milliseconds timeout, size_t max_output);

}  // namespace guarded_agent
