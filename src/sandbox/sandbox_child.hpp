#pragma once
// The child's side of a sandboxed run: between fork and exec it enters the
// namespaces, mounts the guarded places read-only and the secrets' masks,
// gives up privileges, enforces Landlock and seccomp, and runs the command.
// Everything it needs is prepared by the parent, so it only makes system
// calls (no allocation: the parent may have threads).

#include <sys/socket.h>

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

/// One bind mount: `source` onto `target`, then made read-only.
struct BindMount {
  std::string source;
  std::string target;
};

/// Everything the child does, ready to use.
struct ChildPlan {
  bool namespaces = false;                    ///< unshare a user and mount namespace
  bool new_network = false;                   ///< and a network namespace (its loopback brought up)
  std::string uid_map;                        ///< "UID UID 1"
  std::string gid_map;                        ///< "GID GID 1"
  std::vector<BindMount> binds;               ///< read-only binds, in order
  const LandlockRuleset* landlock = nullptr;  ///< enforced when set
  const SeccompProgram* seccomp = nullptr;    ///< loaded when set
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

/// Runs in the child after fork: sets everything up and execs; on failure
/// writes {step, errno} to `report_fd` and exits 127. Never returns.
[[noreturn]] void enterSandbox(const ChildPlan& plan, int report_fd) noexcept;

}  // namespace toolguard::sandbox
