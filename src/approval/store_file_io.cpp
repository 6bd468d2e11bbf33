// The approval store's file operations: whole-file reads with stamps,
// `mkdir -p`, the flock on `<file>.lock`, and lock-free atomic replacement
// (temporary file, fsync, rename, fsync of the directory).
#include "approval/store_file_io.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "core/file_descriptor.hpp"
#include "core/random_bytes.hpp"
#include "toolguard/approval_store.hpp"

namespace toolguard::detail {

namespace {

// Store files hold a few thousand entries at most; anything far larger is not ours.
constexpr off_t kMaxStoreFileBytes = 64 * 1024 * 1024;

std::string errnoText(const char* what, int error) {
  std::string text = what;
  text.append(": ");
  text.append(std::strerror(error));
  return text;
}

FileStamp stampOf(const struct stat& st) {
  FileStamp stamp;
  stamp.device = st.st_dev;
  stamp.inode = st.st_ino;
  stamp.size = st.st_size;
  stamp.modified = st.st_mtim;
  return stamp;
}

int openRetrying(const char* path, int flags, mode_t mode = 0) {
  int fd;
  do {
    fd = ::open(path, flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

std::string parentDirectory(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

uint64_t randomSuffix() {
  uint64_t suffix = 0;
  randomBytes(&suffix, sizeof suffix);
  return suffix;
}

void writeAllOrThrow(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw ApprovalStoreError(path, errnoText("cannot write", errno));
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

void syncDirectory(const std::string& dir) {
  FileDescriptor fd(openRetrying(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) throw ApprovalStoreError(dir, errnoText("cannot open to sync", errno));
  if (::fsync(fd.get()) != 0) throw ApprovalStoreError(dir, errnoText("cannot sync", errno));
}

// Creates a fresh temporary file next to `path`; returns its descriptor and name.
int createTemporaryFile(const std::string& path, std::string& temporary) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    char suffix[64];
    std::snprintf(suffix, sizeof suffix, ".tmp.%ld.%016llx", static_cast<long>(::getpid()),
                  static_cast<unsigned long long>(randomSuffix()));
    temporary = path;
    temporary.append(suffix);
    const int fd =
        openRetrying(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) return fd;
    if (errno != EEXIST) throw ApprovalStoreError(temporary, errnoText("cannot create", errno));
  }
  throw ApprovalStoreError(path, "cannot find a free temporary file name next to it");
}

}  // namespace

bool FileStamp::operator==(const FileStamp& other) const {
  return device == other.device && inode == other.inode && size == other.size &&
         modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
}

std::optional<FileContents> readStoreFile(const std::string& path) {
  FileDescriptor fd(openRetrying(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw ApprovalStoreError(path, errnoText("cannot open", errno));
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) throw ApprovalStoreError(path, errnoText("cannot stat", errno));
  if (!S_ISREG(st.st_mode)) throw ApprovalStoreError(path, "not a regular file");
  if (st.st_size > kMaxStoreFileBytes) {
    throw ApprovalStoreError(path, "larger than " + std::to_string(kMaxStoreFileBytes) + " bytes");
  }
  FileContents contents;
  contents.stamp = stampOf(st);
  // One byte more than the file holds: the read that finds its end needs
  // room, and growing then would copy the whole file.
  contents.bytes.resize(static_cast<size_t>(st.st_size) + 1);
  size_t filled = 0;
  for (;;) {
    if (filled == contents.bytes.size()) {
      if (contents.bytes.size() >= static_cast<size_t>(kMaxStoreFileBytes)) {
        throw ApprovalStoreError(path, "grew while being read");
      }
      contents.bytes.resize(contents.bytes.size() + 4096);
    }
    const ssize_t got =
        ::read(fd.get(), contents.bytes.data() + filled, contents.bytes.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw ApprovalStoreError(path, errnoText("cannot read", errno));
    if (got == 0) break;
    filled += static_cast<size_t>(got);
    // A read of a regular file that stops short of what was asked stopped
    // at its end: with exactly the size fstat saw, the file is read whole
    // and a read that only finds the end is not needed.
    if (filled < contents.bytes.size() && filled == static_cast<size_t>(st.st_size)) break;
  }
  contents.bytes.resize(filled);
  return contents;
}

std::optional<FileStamp> statStoreFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::nullopt;
    throw ApprovalStoreError(path, errnoText("cannot stat", errno));
  }
  return stampOf(st);
}

void makeDirectories(const std::string& dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw ApprovalStoreError(dir, "exists but is not a directory");
    return;
  }
  if (errno != ENOENT) throw ApprovalStoreError(dir, errnoText("cannot stat", errno));
  const std::string parent = parentDirectory(dir);
  if (parent != dir) makeDirectories(parent);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    throw ApprovalStoreError(dir, errnoText("cannot create directory", errno));
  }
}

ScopeFileLock::ScopeFileLock(const std::string& file, MissingDirectory missing) {
  const std::string lock_path = file + ".lock";
  constexpr int kFlags = O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW;
  fd_ = openRetrying(lock_path.c_str(), kFlags, 0600);
  if (fd_ < 0 && errno == ENOENT && missing == MissingDirectory::Make) {
    makeDirectories(parentDirectory(lock_path));
    fd_ = openRetrying(lock_path.c_str(), kFlags, 0600);
  }
  if (fd_ < 0) throw ApprovalStoreError(lock_path, errnoText("cannot open lock file", errno));
  int result;
  do {
    result = ::flock(fd_, LOCK_EX);
  } while (result != 0 && errno == EINTR);
  if (result != 0) {
    const int error = errno;
    ::close(fd_);
    throw ApprovalStoreError(lock_path, errnoText("cannot lock", error));
  }
}

ScopeFileLock::~ScopeFileLock() {
  ::close(fd_);
}  // closing the last descriptor unlocks

void replaceFileAtomically(const std::string& path, std::string_view bytes) {
  std::string temporary;
  FileDescriptor fd(createTemporaryFile(path, temporary));
  try {
    writeAllOrThrow(fd.get(), bytes, temporary);
    if (::fsync(fd.get()) != 0)
      throw ApprovalStoreError(temporary, errnoText("cannot sync", errno));
    if (fd.close() != 0) throw ApprovalStoreError(temporary, errnoText("cannot close", errno));
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
      throw ApprovalStoreError(path, errnoText("cannot rename the new version into place", errno));
    }
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  syncDirectory(parentDirectory(path));
}

}  // namespace toolguard::detail
