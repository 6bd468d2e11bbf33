#pragma once
// The child's side of a sandboxed run: between fork and exec it enters the
// namespaces, mounts the guarded places read-only and the secrets' masks,
// gives up privileges, enforces Landlock and seccomp, and runs the command.
// Everything it needs is prepared by the parent, so it only makes system
// calls (no allocation: the parent may have threads).

#include <sys/socket.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sandbox/landlock.hpp"
#include "sandbox/seccomp_filter.hpp"

namespace toolguard::sandbox {

/// A message of one byte with room for one file descriptor (SCM_RIGHTS):
/// how the child hands the proxy's listening socket to the parent. Set up
/// in place, without allocating.
struct FdMessage {
  char byte = 0;
  iovec data{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr header{};

  FdMessage() noexcept {
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
  }
  FdMessage(const FdMessage&) = delete;
  FdMessage& operator=(const FdMessage&) = delete;
};

/// One mount of the sandbox's view of the files, made in the private mount
/// namespace and left read-only.
struct MountStep {
  enum class Kind {
    ReadOnly,  ///< `target` bound onto itself: a guarded place the command may not change
    MaskFile,  ///< an empty file of mode 000 bound onto `target`: a secret file is refused
    MaskDir,   ///< an empty directory of mode 000 bound onto `target`: a secret directory
  };
  Kind kind = Kind::ReadOnly;
  std::string target;
};

/// Everything the child does, ready to use.
struct ChildPlan {
  bool namespaces = false;        ///< unshare a user and mount namespace
  bool new_network = false;       ///< and a network namespace (its loopback brought up)
  std::string uid_map;            ///< "UID UID 1"
  std::string gid_map;            ///< "GID GID 1"
  std::vector<MountStep> mounts;  ///< in order
  /// With namespaces: an existing directory on which a fresh tmpfs is
  /// mounted as the command's private TMPDIR (nothing of it reaches the
  /// disk, nothing to remove after), made writable in `landlock`.
  std::string private_tmp;
  /// The empty file and directory of mode 000 bound onto secrets.
  std::string mask_file;
  std::string mask_dir;
  /// The child makes the masks in the private TMPDIR once it is mounted,
  /// and removes them there once they are bound (the binds keep them).
  bool make_masks = false;
  LandlockRuleset* landlock = nullptr;      ///< enforced when set
  const SeccompProgram* seccomp = nullptr;  ///< loaded when set
  /// With new_network: a socket on which the child sends the parent a TCP
  /// socket listening on 127.0.0.1:proxy_port of the private network (-1: none).
  int proxy_channel = -1;
  int proxy_port = 0;
  std::string cwd;          ///< changed to before exec ("": stays)
  std::vector<char*> argv;  ///< null-terminated
  std::vector<char*> envp;  ///< null-terminated
};

/// The step the child failed at, sent to the parent with the errno.
enum class ChildStep : int {
  Unshare = 1,
  IdentityMaps,
  MountPrivate,
  Bind,
  ReadOnly,
  PrivateTmp,
  Loopback,
  ProxyListener,
  NoNewPrivs,
  Capabilities,
  Landlock,
  Seccomp,
  Chdir,
  Exec,
};

/// What a step is, for the error message.
const char* childStepName(ChildStep step);

/// A step that failed, with its errno.
struct SetupFailure {
  ChildStep step;
  int error;
};

/// Confines the calling process as `plan` says (namespaces, mounts,
/// privileges, Landlock, seccomp, directory), system calls only. Returns the
/// failed step, or nothing when the process is ready to exec.
std::optional<SetupFailure> confineProcess(const ChildPlan& plan) noexcept;

/// Runs in the child after fork: confines it and execs; on failure writes
/// {step, errno} to `report_fd` and exits 127. Never returns.
[[noreturn]] void enterSandbox(const ChildPlan& plan, int report_fd) noexcept;

}  // namespace toolguard::sandbox
