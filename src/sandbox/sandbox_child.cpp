// The child of a sandboxed run (sandbox_child.hpp): system calls only.
#include "sandbox/sandbox_child.hpp"

#include <fcntl.h>
#include <linux/capability.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace toolguard::sandbox {
namespace {

struct ChildReport {
  int step;
  int error;
};

[[noreturn]] void failAt(int report_fd, ChildStep step, int error) noexcept {
  const ChildReport report{static_cast<int>(step), error};
  [[maybe_unused]] ssize_t written = ::write(report_fd, &report, sizeof report);
  ::_exit(127);
}

bool writeFile(const char* path, const std::string& text) noexcept {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// The flags a read-only remount must keep: a mount inherited into a user
// namespace is locked, and a remount that clears one of these fails.
unsigned long keptFlags(const char* path) noexcept {
  struct statvfs st {};
  if (::statvfs(path, &st) != 0) return 0;
  unsigned long flags = 0;
  if (st.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (st.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (st.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (st.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (st.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (st.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

int bringLoopbackUp() noexcept {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  ifreq request{};
  std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
  int error = 0;
  if (::ioctl(fd, SIOCGIFFLAGS, &request) != 0) {
    error = errno;
  } else {
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP | IFF_RUNNING);
    if (::ioctl(fd, SIOCSIFFLAGS, &request) != 0) error = errno;
  }
  ::close(fd);
  return error;
}

// Makes the proxy's listening socket inside the private network namespace
// and hands it to the parent over `channel` (SCM_RIGHTS); returns 0 or the
// errno.
int handOverProxyListener(int channel, int port) noexcept {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int error = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(fd, 128) != 0) {
    error = errno;
  } else {
    FdMessage message;
    cmsghdr* header = CMSG_FIRSTHDR(&message.header);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &fd, sizeof fd);
    if (::sendmsg(channel, &message.header, MSG_NOSIGNAL) != 1) error = errno;
  }
  ::close(fd);
  ::close(channel);
  return error;
}

// Empties the bounding, ambient and process capability sets, so that not
// even a root-owned process keeps (or regains at exec) a capability.
int dropCapabilities() noexcept {
  for (int cap = 0; cap <= 63; ++cap) {
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM) {
      return errno;
    }
  }
  // EPERM above: no CAP_SETPCAP, so the process has none to drop (not
  // root); a root process that cannot empty its bounding set fails below.
  if (::prctl(PR_CAPBSET_READ, 0, 0, 0, 0) == 1 && ::geteuid() == 0) return EPERM;
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capset, &header, data) != 0) return errno;
  return 0;
}

}  // namespace

const char* childStepName(ChildStep step) {
  switch (step) {
    case ChildStep::Unshare:
      return "making a user, mount and network namespace (unshare)";
    case ChildStep::IdentityMaps:
      return "writing the namespace's user and group maps";
    case ChildStep::MountPrivate:
      return "making the mounts private";
    case ChildStep::Bind:
      return "mounting a guarded place or a mask";
    case ChildStep::ReadOnly:
      return "making a bind mount read-only";
    case ChildStep::PrivateTmp:
      return "mounting the private TMPDIR";
    case ChildStep::Loopback:
      return "bringing up the private loopback interface";
    case ChildStep::ProxyListener:
      return "making the network proxy's socket in the private network";
    case ChildStep::NoNewPrivs:
      return "setting no_new_privs";
    case ChildStep::Capabilities:
      return "dropping capabilities";
    case ChildStep::Landlock:
      return "enforcing the Landlock ruleset";
    case ChildStep::Seccomp:
      return "loading the seccomp filter";
    case ChildStep::Chdir:
      return "changing to the command's directory";
    case ChildStep::Exec:
      return "running the command";
  }
  return "setting up";
}

std::optional<SetupFailure> confineProcess(const ChildPlan& plan) noexcept {
  auto failed = [](ChildStep step, int error) { return SetupFailure{step, error}; };
  if (plan.namespaces) {
    const int flags = CLONE_NEWUSER | CLONE_NEWNS | (plan.new_network ? CLONE_NEWNET : 0);
    if (::unshare(flags) != 0) return failed(ChildStep::Unshare, errno);
    if (!writeFile("/proc/self/setgroups", "deny") ||
        !writeFile("/proc/self/uid_map", plan.uid_map) ||
        !writeFile("/proc/self/gid_map", plan.gid_map)) {
      return failed(ChildStep::IdentityMaps, errno);
    }
    if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      return failed(ChildStep::MountPrivate, errno);
    }
    if (!plan.private_tmp.empty()) {
      if (::mount("toolguard-tmp", plan.private_tmp.c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
                  "mode=0700") != 0) {
        return failed(ChildStep::PrivateTmp, errno);
      }
    }
    if (plan.make_masks) {
      const int fd = ::open(plan.mask_file.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0);
      if (fd < 0) return failed(ChildStep::PrivateTmp, errno);
      ::close(fd);
      if (::mkdir(plan.mask_dir.c_str(), 0) != 0) return failed(ChildStep::PrivateTmp, errno);
    }
    for (const MountStep& step : plan.mounts) {
      const char* target = step.target.c_str();
      const char* source = step.kind == MountStep::Kind::MaskFile  ? plan.mask_file.c_str()
                           : step.kind == MountStep::Kind::MaskDir ? plan.mask_dir.c_str()
                                                                   : target;
      if (::mount(source, target, nullptr, MS_BIND | MS_REC, nullptr) != 0) {
        return failed(ChildStep::Bind, errno);
      }
      const unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY | keptFlags(target);
      if (::mount(nullptr, target, nullptr, flags, nullptr) != 0) {
        return failed(ChildStep::ReadOnly, errno);
      }
    }
    if (plan.make_masks) {
      // Out of the TMPDIR; the binds keep them where they hide a secret.
      if (::unlink(plan.mask_file.c_str()) != 0 || ::rmdir(plan.mask_dir.c_str()) != 0) {
        return failed(ChildStep::PrivateTmp, errno);
      }
    }
    if (!plan.private_tmp.empty() && plan.landlock != nullptr) {
      const int error = plan.landlock->allowDirectoryNow(plan.private_tmp.c_str(),
                                                         fsAccessOf(plan.landlock->abi()));
      if (error != 0) return failed(ChildStep::PrivateTmp, error);
    }
    if (plan.new_network) {
      if (int error = bringLoopbackUp(); error != 0) return failed(ChildStep::Loopback, error);
      if (plan.proxy_channel >= 0) {
        if (int error = handOverProxyListener(plan.proxy_channel, plan.proxy_port); error != 0) {
          return failed(ChildStep::ProxyListener, error);
        }
      }
    }
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return failed(ChildStep::NoNewPrivs, errno);
  if (int error = dropCapabilities(); error != 0) return failed(ChildStep::Capabilities, error);
  if (plan.landlock != nullptr) {
    if (int error = plan.landlock->enforce(); error != 0) return failed(ChildStep::Landlock, error);
  }
  if (plan.seccomp != nullptr) {
    if (int error = plan.seccomp->load(); error != 0) return failed(ChildStep::Seccomp, error);
  }
  if (!plan.cwd.empty() && ::chdir(plan.cwd.c_str()) != 0) return failed(ChildStep::Chdir, errno);
  return std::nullopt;
}

void enterSandbox(const ChildPlan& plan, int report_fd) noexcept {
  if (const std::optional<SetupFailure> failure = confineProcess(plan)) {
    failAt(report_fd, failure->step, failure->error);
  }
  ::execvpe(plan.argv[0], plan.argv.data(), plan.envp.data());
  failAt(report_fd, ChildStep::Exec, errno);
}

}  // namespace toolguard::sandbox
