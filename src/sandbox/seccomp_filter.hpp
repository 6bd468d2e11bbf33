#pragma once
// The seccomp filter of a sandboxed command, built with libseccomp in the
// launching process and loaded by the child between fork and exec.

#include <linux/filter.h>

#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard::sandbox {

/// A compiled filter program.
struct SeccompProgram {
  std::vector<sock_filter> instructions;

  /// Loads the program on the calling thread (no_new_privs must be set);
  /// async-signal-safe. Returns 0, or the errno.
  int load() const noexcept;
};

/// What the filter refuses.
struct SeccompChoices {
  /// Only Unix and netlink sockets may be made (no TCP, UDP, raw or other
  /// families: nothing reaches the network).
  bool no_network = false;
};

/// The filter: io_uring (which makes sockets and opens files where no
/// filter sees it) is always refused; sockets as `choices` say. Refused calls
/// fail with EACCES (EPERM for io_uring); a system call of another
/// architecture (32-bit calls from a 64-bit process) kills the process.
Expected<SeccompProgram> buildSeccompProgram(const SeccompChoices& choices);

/// Whether this kernel accepts seccomp filters.
bool seccompAvailable();

}  // namespace toolguard::sandbox
