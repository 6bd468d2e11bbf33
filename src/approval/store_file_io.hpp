#pragma once
// Internal: the approval store's file operations: reading a whole file with
// the stamp of what was read, the per-file write lock, and atomic replacement.

#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// What identifies one version of a file. A rewrite (rename into place)
/// changes the inode; an edit in place changes the size or the time.
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  timespec modified{};

  bool operator==(const FileStamp& other) const;
};

/// A whole file's bytes and the stamp of the version they were read from.
struct FileContents {
  std::string bytes;
  FileStamp stamp;
};

/// Reads a whole regular file. nullopt when it does not exist; throws
/// ApprovalStoreError naming the file when it cannot be read.
std::optional<FileContents> readStoreFile(const std::string& path);

/// The stamp of a file as it is now; nullopt when it does not exist; throws
/// ApprovalStoreError naming the file when it cannot be examined.
std::optional<FileStamp> statStoreFile(const std::string& path);

/// Creates `dir` and its missing parents with mode 0700 (`mkdir -p`). Throws
/// ApprovalStoreError naming the directory that could not be made.
void makeDirectories(const std::string& dir);

/// An exclusive flock on `<file>.lock` (created 0600, never renamed or
/// removed), held until destroyed. Locks taken through different open files
/// exclude each other, so it serializes threads as well as processes.
class ScopeFileLock {
 public:
  /// What to do when the lock file's directory does not exist: fail, or
  /// make it (and its parents) and open the lock file again.
  enum class MissingDirectory { Fail, Make };
  explicit ScopeFileLock(const std::string& file,
                         MissingDirectory missing = MissingDirectory::Fail);
  ~ScopeFileLock();
  ScopeFileLock(const ScopeFileLock&) = delete;
  ScopeFileLock& operator=(const ScopeFileLock&) = delete;

 private:
  int fd_ = -1;
};

/// Replaces `path` with `bytes` so that a crash leaves either the old or the
/// new file: writes `<path>.tmp.<pid>.<random>` (O_EXCL, 0600) in the same
/// directory, fsyncs it, renames it into place and fsyncs the directory. The
/// temporary file is removed on failure. Throws ApprovalStoreError.
void replaceFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace toolguard::detail
