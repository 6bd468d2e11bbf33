// Landlock's three system calls and the ruleset (landlock.hpp).
#include "sandbox/landlock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace toolguard::sandbox {
namespace {

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

// The kernel's structures, in their newest layout: an older kernel accepts
// the larger size as long as the fields it does not know are zero.
struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

struct __attribute__((packed)) PathBeneathAttr {
  uint64_t allowed_access;
  int32_t parent_fd;
};

struct NetPortAttr {
  uint64_t allowed_access;
  uint64_t port;
};

constexpr int kRulePathBeneath = 1;
constexpr int kRuleNetPort = 2;
constexpr uint32_t kCreateRulesetVersion = 1U << 0;

// Rights that make sense on a file that is not a directory.
constexpr uint64_t kFileAccess =
    kFsExecute | kFsWriteFile | kFsReadFile | kFsTruncate | kFsIoctlDev;

std::string errnoText(int error) {
  return std::strerror(error);
}

}  // namespace

uint64_t fsAccessOf(int abi) {
  if (abi <= 0) return 0;
  uint64_t access = (kFsMakeSym << 1) - 1;  // ABI 1: bits 0 to 12
  if (abi >= 2) access |= kFsRefer;
  if (abi >= 3) access |= kFsTruncate;
  if (abi >= 5) access |= kFsIoctlDev;
  return access;
}

uint64_t fsWriteAccessOf(int abi) {
  return fsAccessOf(abi) & ~(kFsReadAccess | kFsIoctlDev);
}

int landlockAbi() {
  const long abi = ::syscall(__NR_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

LandlockRuleset::LandlockRuleset(LandlockRuleset&& other) noexcept {
  *this = std::move(other);
}

LandlockRuleset& LandlockRuleset::operator=(LandlockRuleset&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    abi_ = other.abi_;
    handled_fs_ = other.handled_fs_;
    handled_net_ = other.handled_net_;
    scoped_ = other.scoped_;
  }
  return *this;
}

LandlockRuleset::~LandlockRuleset() {
  if (fd_ >= 0) ::close(fd_);
}

Expected<LandlockRuleset> LandlockRuleset::create(int abi, bool confine_tcp) {
  if (abi <= 0) return fail("the kernel has no Landlock");
  LandlockRuleset ruleset;
  ruleset.abi_ = abi;
  ruleset.handled_fs_ = fsAccessOf(abi);
  ruleset.handled_net_ = confine_tcp && abi >= 4 ? (kNetBindTcp | kNetConnectTcp) : 0;
  ruleset.scoped_ = abi >= 6 ? (kScopeAbstractUnixSocket | kScopeSignal) : 0;
  RulesetAttr attr{ruleset.handled_fs_, ruleset.handled_net_, ruleset.scoped_};
  const long fd = ::syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (fd < 0) return fail("landlock_create_ruleset: " + errnoText(errno));
  ruleset.fd_ = static_cast<int>(fd);
  return ruleset;
}

Expected<void> LandlockRuleset::allowPath(const std::string& path, uint64_t access) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return fail(path + ": " + errnoText(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return fail(path + ": " + errnoText(error));
  }
  PathBeneathAttr attr{};
  attr.allowed_access = access & handled_fs_;
  if (!S_ISDIR(st.st_mode)) attr.allowed_access &= kFileAccess;
  attr.parent_fd = fd;
  long result = 0;
  if (attr.allowed_access != 0) {
    result = ::syscall(__NR_landlock_add_rule, fd_, kRulePathBeneath, &attr, 0);
  }
  const int error = errno;
  ::close(fd);
  if (result != 0) return fail("landlock_add_rule " + path + ": " + errnoText(error));
  return {};
}

int LandlockRuleset::allowDirectoryNow(const char* path, uint64_t access) noexcept {
  const int fd = ::open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  PathBeneathAttr attr{};
  attr.allowed_access = access & handled_fs_;
  attr.parent_fd = fd;
  const long result = ::syscall(__NR_landlock_add_rule, fd_, kRulePathBeneath, &attr, 0);
  const int error = result == 0 ? 0 : errno;
  ::close(fd);
  return error;
}

Expected<void> LandlockRuleset::allowConnect(uint16_t port) {
  if (handled_net_ == 0) return {};
  NetPortAttr attr{kNetConnectTcp, port};
  if (::syscall(__NR_landlock_add_rule, fd_, kRuleNetPort, &attr, 0) != 0) {
    return fail("landlock_add_rule port " + std::to_string(port) + ": " + errnoText(errno));
  }
  return {};
}

int LandlockRuleset::enforce() const noexcept {
  if (::syscall(__NR_landlock_restrict_self, fd_, 0) != 0) return errno;
  return 0;
}

}  // namespace toolguard::sandbox
