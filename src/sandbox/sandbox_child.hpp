#pragma once
// The child's side of a sandboxed run: between fork and exec it enters the
// namespaces, mounts the guarded places read-only and the secrets' masks,
// gives up privileges, enforces Landlock and seccomp, and runs the command.
// Everything it needs is prepared by the parent, so it only makes system
// calls (no allocation: the parent may have threads).

#include <string>
#include <utility>
#include <vector>

#include "sandbox/landlock.hpp"
#include "sandbox/seccomp_filter.hpp"

namespace toolguard::sandbox {

/// One bind mount: `source` onto `target`, then made read-only.
struct BindMount {
  std::string source;
  std::string target;
};

/// A place under /tmp kept visible in the private /tmp. One that is not
/// writable is bound read-only: Landlock would otherwise grant it the
/// private /tmp's rights, through the mount point the bind sits on.
struct TmpKeep {
  std::string path;
  bool read_only = false;
};

/// Everything the child does, ready to use.
struct ChildPlan {
  bool namespaces = false;       ///< unshare a user and mount namespace
  bool new_network = false;      ///< and a network namespace (its loopback brought up)
  std::string uid_map;           ///< "UID UID 1"
  std::string gid_map;           ///< "GID GID 1"
  std::vector<BindMount> binds;  ///< read-only binds, in order
  std::string private_tmp;       ///< bound onto /tmp (writable), last; "" for none
  /// Places under /tmp that the private /tmp would hide (a workspace in
  /// /tmp): bound back at their paths after it (at most kMaxTmpKeeps).
  std::vector<TmpKeep> tmp_keeps;
  const LandlockRuleset* landlock = nullptr;  ///< enforced when set
  const SeccompProgram* seccomp = nullptr;    ///< loaded when set
  std::string cwd;                            ///< changed to before exec ("": stays)
  std::vector<char*> argv;                    ///< null-terminated
  std::vector<char*> envp;                    ///< null-terminated
};

/// The most places in /tmp a run keeps.
inline constexpr size_t kMaxTmpKeeps = 64;

/// The step the child failed at, sent to the parent with the errno.
enum class ChildStep : int {
  Unshare = 1,
  IdentityMaps,
  MountPrivate,
  Bind,
  ReadOnly,
  PrivateTmp,
  Loopback,
  NoNewPrivs,
  Capabilities,
  Landlock,
  Seccomp,
  Chdir,
  Exec,
};

/// What a step is, for the error message.
const char* childStepName(ChildStep step);

/// Runs in the child after fork: sets everything up and execs; on failure
/// writes {step, errno} to `report_fd` and exits 127. Never returns.
[[noreturn]] void enterSandbox(const ChildPlan& plan, int report_fd) noexcept;

}  // namespace toolguard::sandbox
