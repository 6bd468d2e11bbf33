#pragma once
// Internal: the file system as one decision sees it. A judgement asks about
// the same few places many times (the home directory's components while
// `~` is resolved for each rule, the working directory for each path); a
// glance answers each lstat and stat once per decision. The answers are as
// fresh as the decision: the world can change a microsecond later either
// way, and what the tool then does is judged by the kernel, not by us.

#include <sys/stat.h>

#include <string>

namespace toolguard::detail {

/// While one is alive on a thread, that thread's glanceLstat and glanceStat
/// answers are remembered; a glance opened inside another adds nothing. Open
/// one around a judgement, never around a wait (a person's answer, a lock).
class FileGlance {
 public:
  FileGlance();
  ~FileGlance();
  FileGlance(const FileGlance&) = delete;
  FileGlance& operator=(const FileGlance&) = delete;

 private:
  bool opened_;  ///< this one opened the thread's glance (not nested)
};

/// lstat(2): true and `out` filled when `path` exists (links not followed).
bool glanceLstat(const std::string& path, struct stat& out);

/// stat(2): true and `out` filled when `path` leads somewhere (links followed).
bool glanceStat(const std::string& path, struct stat& out);

}  // namespace toolguard::detail
