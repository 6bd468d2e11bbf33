// Does the file system holding a directory compare names without case?
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <mutex>
#include <tuple>

#include "file_glance.hpp"
#include "toolguard/paths.hpp"

#if defined(__linux__)
#include <linux/fs.h>
#include <sys/vfs.h>
#endif

namespace toolguard {

#if defined(__linux__)
namespace {

// statfs magic numbers of file systems that fold case for every name.
constexpr unsigned long kCaseFoldingFileSystems[] = {
    0x4d44,      // vfat / msdos
    0x2011BAB0,  // exFAT
    0xFF534D42,  // CIFS
    0xFE534D42,  // SMB2
    0x517B,      // SMB
    0x482b,      // HFS+
};
constexpr unsigned long kExt4 = 0xEF53;
constexpr unsigned long kF2fs = 0xF2F52010;
#ifndef FS_CASEFOLD_FL
constexpr int FS_CASEFOLD_FL = 0x40000000;  // linux/fs.h of kernels before 5.2 lacks it
#endif

// A file system that folds case for every name, by its statfs type.
bool foldsEveryName(const struct statfs& info) {
  const auto type = static_cast<unsigned long>(info.f_type) & 0xFFFFFFFFul;
  for (unsigned long magic : kCaseFoldingFileSystems) {
    if (type == magic) return true;
  }
  return false;
}

// What the file system holding the open directory `fd` says: its type, and
// ext4's or f2fs's per-directory attribute (chattr +F).
bool probeCaseInsensitive(int fd) {
  struct statfs info {};
  if (::fstatfs(fd, &info) != 0) return false;
  if (foldsEveryName(info)) return true;
  const auto type = static_cast<unsigned long>(info.f_type) & 0xFFFFFFFFul;
  if (type != kExt4 && type != kF2fs) return false;
  int flags = 0;
  return ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_CASEFOLD_FL) != 0;
}

// Answers already found in this process, by directory inode. A directory's
// answer changes only with its file system (another device number) or its
// casefold attribute, and setting that attribute changes the inode's ctime:
// an entry counts only while device, inode and ctime are all the same. So a
// process that judges many calls (--batch, the MCP proxy, a server) asks the
// kernel once per directory instead of four times per path.
struct KnownDirectory {
  dev_t device;
  ino_t inode;
  bool operator<(const KnownDirectory& other) const {
    return std::tie(device, inode) < std::tie(other.device, other.inode);
  }
};
struct KnownAnswer {
  struct timespec changed;
  bool insensitive;
};
constexpr size_t kMaxKnownDirectories = 4096;

}  // namespace

bool isCaseInsensitiveDirectory(const std::string& dir) {
  static std::mutex mutex;
  static std::map<KnownDirectory, KnownAnswer> known;
  auto sameChange = [](const struct timespec& a, const struct timespec& b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
  };
  struct stat st {};
  if (detail::glanceStat(dir, st)) {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find({st.st_dev, st.st_ino});
        it != known.end() && sameChange(it->second.changed, st.st_ctim)) {
      return it->second.insensitive;
    }
  }
  // Asked through one open descriptor, so the answer belongs to the inode
  // it is kept under, whatever happens to the name meanwhile.
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {  // a directory we may not read: its file system's type alone
    struct statfs info {};
    return ::statfs(dir.c_str(), &info) == 0 && foldsEveryName(info);
  }
  const bool insensitive = probeCaseInsensitive(fd);
  if (::fstat(fd, &st) == 0) {
    std::lock_guard<std::mutex> lock(mutex);
    if (known.size() >= kMaxKnownDirectories) known.clear();
    known[{st.st_dev, st.st_ino}] = KnownAnswer{st.st_ctim, insensitive};
  }
  ::close(fd);
  return insensitive;
}

#elif defined(__APPLE__)

bool isCaseInsensitiveDirectory(const std::string& dir) {
  return ::pathconf(dir.c_str(), _PC_CASE_SENSITIVE) == 0;
}

#else

bool isCaseInsensitiveDirectory(const std::string&) {
  return false;
}

#endif

std::string_view toString(CaseSensitivity value) {
  switch (value) {
    case CaseSensitivity::Auto:
      return "auto";
    case CaseSensitivity::Sensitive:
      return "sensitive";
    case CaseSensitivity::Insensitive:
      return "insensitive";
  }
  return "auto";
}

std::optional<CaseSensitivity> parseCaseSensitivity(std::string_view name) {
  for (CaseSensitivity value :
       {CaseSensitivity::Auto, CaseSensitivity::Sensitive, CaseSensitivity::Insensitive}) {
    if (toString(value) == name) return value;
  }
  return std::nullopt;
}

}  // namespace toolguard
