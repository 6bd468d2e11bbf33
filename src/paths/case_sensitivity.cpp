// Does the file system holding a directory compare names without case?
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

// ext4 and f2fs fold case per directory (chattr +F).
bool hasCasefoldAttribute(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  int flags = 0;
  const bool folded = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_CASEFOLD_FL) != 0;
  ::close(fd);
  return folded;
}

}  // namespace

bool isCaseInsensitiveDirectory(const std::string& dir) {
  struct statfs info {};
  if (::statfs(dir.c_str(), &info) != 0) return false;
  const auto type = static_cast<unsigned long>(info.f_type) & 0xFFFFFFFFul;
  for (unsigned long magic : kCaseFoldingFileSystems) {
    if (type == magic) return true;
  }
  if (type == kExt4 || type == kF2fs) return hasCasefoldAttribute(dir);
  return false;
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
