// The sandbox's seccomp filter (seccomp_filter.hpp), with libseccomp.
#include "sandbox/seccomp_filter.hpp"

#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/file_descriptor.hpp"

namespace toolguard::sandbox {
namespace {

struct ContextRelease {
  void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};
using Context = std::unique_ptr<void, ContextRelease>;

std::string seccompError(const char* what, int result) {
  return std::string(what) + ": " + std::strerror(-result);
}

// One comparison of the first argument (written out: libseccomp's SCMP_A0
// macro is a C compound literal, which C++ compilers warn about).
scmp_arg_cmp firstArgument(scmp_compare op, scmp_datum_t value) {
  scmp_arg_cmp compare{};
  compare.arg = 0;
  compare.op = op;
  compare.datum_a = value;
  return compare;
}

// Refuses socket(domain, ...) for every domain but Unix and netlink: the
// families are a closed list, so a family nobody thought of is refused too.
int refuseNetworkSockets(scmp_filter_ctx ctx) {
  const uint32_t refuse = SCMP_ACT_ERRNO(EACCES);
  for (int domain = 0; domain < AF_MAX; ++domain) {
    if (domain == AF_UNIX || domain == AF_NETLINK) continue;
    const scmp_arg_cmp same = firstArgument(SCMP_CMP_EQ, static_cast<scmp_datum_t>(domain));
    if (int r = seccomp_rule_add_array(ctx, refuse, SCMP_SYS(socket), 1, &same); r < 0) return r;
  }
  const scmp_arg_cmp above = firstArgument(SCMP_CMP_GE, static_cast<scmp_datum_t>(AF_MAX));
  return seccomp_rule_add_array(ctx, refuse, SCMP_SYS(socket), 1, &above);
}

}  // namespace

int SeccompProgram::load() const noexcept {
  sock_fprog program{};
  program.len = static_cast<unsigned short>(instructions.size());
  program.filter = const_cast<sock_filter*>(instructions.data());
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) return errno;
  return 0;
}

bool seccompAvailable() {
  // EINVAL when the kernel has no seccomp; 0 (not in a mode) otherwise.
  return ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

Expected<SeccompProgram> buildSeccompProgram(const SeccompChoices& choices) {
  Context ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return fail("seccomp_init failed");
  // The child sets no_new_privs itself, before loading the program.
  if (int r = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_NNP, 0); r < 0) {
    return fail(seccompError("seccomp_attr_set", r));
  }
  if (int r = seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); r < 0) {
    return fail(seccompError("seccomp_attr_set", r));
  }
  for (int call :
       {SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register)}) {
    if (int r = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EPERM), call, 0); r < 0) {
      return fail(seccompError("seccomp_rule_add io_uring", r));
    }
  }
  if (choices.no_network) {
    if (int r = refuseNetworkSockets(ctx.get()); r < 0) {
      return fail(seccompError("seccomp_rule_add socket", r));
    }
  }
  detail::FileDescriptor memory(::memfd_create("toolguard-seccomp", MFD_CLOEXEC));
  if (memory.get() < 0) return fail(std::string("memfd_create: ") + std::strerror(errno));
  if (int r = seccomp_export_bpf(ctx.get(), memory.get()); r < 0) {
    return fail(seccompError("seccomp_export_bpf", r));
  }
  const off_t size = ::lseek(memory.get(), 0, SEEK_END);
  if (size <= 0 || size % static_cast<off_t>(sizeof(sock_filter)) != 0) {
    return fail("seccomp_export_bpf wrote no program");
  }
  SeccompProgram program;
  program.instructions.resize(static_cast<size_t>(size) / sizeof(sock_filter));
  if (::pread(memory.get(), program.instructions.data(), static_cast<size_t>(size), 0) != size) {
    return fail(std::string("reading the seccomp program: ") + std::strerror(errno));
  }
  return program;
}

}  // namespace toolguard::sandbox
