#pragma once
// Where a sandboxed command may write and what it may not read or change,
// worked out from the settings, the workspaces and what exists on disk,
// with the report of what this kernel holds. No side effect.

#include <string>
#include <vector>

#include "toolguard/sandbox.hpp"

namespace toolguard::sandbox {

/// The places of one sandboxed run.
struct SandboxLayout {
  std::vector<std::string> writable;      ///< existing directories (workspaces, caches)
  std::vector<std::string> read_only;     ///< existing places held read-only (bind mounts)
  std::vector<std::string> make_dirs;     ///< guarded directories to make before the run
  std::vector<std::string> masked_files;  ///< secrets hidden behind an unreadable file
  std::vector<std::string> masked_dirs;   ///< secret directories hidden behind an empty one
  std::vector<std::string> unsearched;    ///< workspaces too large to search for secrets
  bool new_network = false;               ///< a private network namespace (only its own loopback)
  bool namespaces = false;                ///< a user and mount namespace is used
  bool landlock = false;                  ///< Landlock confines writes (and TCP, scopes)
  bool seccomp = false;                   ///< a seccomp filter is loaded
  SandboxReport report;
};

/// At most this many directory entries are looked at in each workspace when
/// looking for secrets; a larger workspace's secrets are reported as not held.
inline constexpr size_t kMaxSearchedEntries = 200000;

/// The layout of `request` under `settings` on `kernel`.
Expected<SandboxLayout> layoutSandbox(const SandboxSettings& settings,
                                      const SandboxRequest& request, const SandboxKernel& kernel);

}  // namespace toolguard::sandbox
