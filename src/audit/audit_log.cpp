// Appending audit records: one write(2) per line with O_APPEND, rotation by
// size under a lock file, shared by threads and processes.
#include "toolguard/audit_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <system_error>

#include "json/compact_dump.hpp"

namespace toolguard {
namespace {

std::string systemError(int error) {
  return std::generic_category().message(error);
}

AuditLogError logFailure(const std::string& path, const std::string& what, int error) {
  return AuditLogError("audit log " + path + ": " + what + ": " + systemError(error));
}

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

// Creates the missing directories above `path`, each 0700.
void createParents(const std::string& path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    const std::string dir = path.substr(0, slash);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      throw logFailure(path, "cannot create the directory " + dir, errno);
    }
  }
}

int openLog(const std::string& path) {
  constexpr int kFlags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC;
  int fd = -1;
  do {
    fd = ::open(path.c_str(), kFlags, 0600);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 && errno == ENOENT) {
    createParents(path);
    do {
      fd = ::open(path.c_str(), kFlags, 0600);
    } while (fd < 0 && errno == EINTR);
  }
  if (fd < 0) throw logFailure(path, "cannot open", errno);
  return fd;
}

bool sameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

std::string rotatedName(const std::string& path, unsigned n) {
  std::string name = path;
  name += '.';
  name += std::to_string(n);
  return name;
}

void renameIfPresent(const std::string& path, const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0 && errno != ENOENT) {
    throw logFailure(path, "cannot rotate " + from + " to " + to, errno);
  }
}

// PATH.(N-1) -> PATH.N ... PATH -> PATH.1: the oldest kept file is
// replaced, and files beyond N (left by a larger keep_rotated) are removed.
void shiftFiles(const std::string& path, unsigned keep) {
  for (unsigned n = keep + 1; ::unlink(rotatedName(path, n).c_str()) == 0; ++n) {
  }
  if (keep == 0) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw logFailure(path, "cannot remove the full log", errno);
    }
    return;
  }
  // Only the files present move: PATH.1 .. PATH.top, the first gap above.
  unsigned top = 0;
  while (top < keep && ::access(rotatedName(path, top + 1).c_str(), F_OK) == 0) ++top;
  for (unsigned n = std::min(top + 1, keep); n >= 2; --n) {
    renameIfPresent(path, rotatedName(path, n - 1), rotatedName(path, n));
  }
  renameIfPresent(path, path, rotatedName(path, 1));
}

}  // namespace

struct AuditLog::State {
  AuditLogOptions options;
  std::mutex mutex;
  int fd = -1;  // the open log; -1 until the first write, or after a failed reopen

  // Our file has grown past max_bytes, or is no longer in place (removed,
  // or rotated by another process).
  bool needsRotation() const {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return true;
    if (st.st_nlink == 0) return true;
    return options.max_bytes > 0 && static_cast<std::uint64_t>(st.st_size) >= options.max_bytes;
  }

  // Under PATH.lock: rotates if our file is still PATH and still full (no
  // other process did it first), then opens PATH afresh.
  void rotateAndReopen() {
    const std::string& path = options.path;
    const std::string lock_path = path + ".lock";
    int lock = -1;
    do {
      lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    } while (lock < 0 && errno == EINTR);
    if (lock < 0) throw logFailure(path, "cannot open the lock file " + lock_path, errno);
    FdCloser closer(lock);  // closing releases the lock
    while (::flock(lock, LOCK_EX) != 0) {
      if (errno != EINTR) throw logFailure(path, "cannot lock " + lock_path, errno);
    }
    struct stat ours {
    }, current{};
    if (::fstat(fd, &ours) == 0 && ::stat(path.c_str(), &current) == 0 && sameFile(ours, current) &&
        options.max_bytes > 0 && static_cast<std::uint64_t>(current.st_size) >= options.max_bytes) {
      shiftFiles(path, options.keep_rotated);
    }
    const int fresh = openLog(path);
    ::close(fd);
    fd = fresh;
  }

  void append(const std::string& line) {
    ssize_t n = -1;
    do {
      n = ::write(fd, line.data(), line.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw logFailure(options.path, "cannot write", errno);
    if (static_cast<size_t>(n) != line.size()) {
      // End the fragment so that the next record is not glued to it (the
      // reader reports the fragment as unreadable); the rest is not written
      // separately, where it could land between other processes' lines.
      std::string what =
          "short write (" + std::to_string(n) + " of " + std::to_string(line.size()) + " bytes)";
      if (::write(fd, "\n", 1) < 0) throw logFailure(options.path, what, errno);
      throw AuditLogError("audit log " + options.path + ": " + what);
    }
  }
};

AuditLog::AuditLog(AuditLogOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
}

AuditLog::~AuditLog() {
  if (state_->fd >= 0) ::close(state_->fd);
}

const AuditLogOptions& AuditLog::options() const {
  return state_->options;
}

void AuditSink::write(const ToolCall& call, const Decision& decision) {
  writeRecord(auditRecord(call, decision, std::chrono::system_clock::now()));
}

void AuditLog::writeRecord(const nlohmann::json& record) {
  State& s = *state_;
  if (!record.is_object()) {
    throw AuditLogError("audit log " + s.options.path + ": a record must be a JSON object");
  }
  std::string line = detail::compactDump(record, detail::BadUtf8::Replace);
  line += '\n';
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.fd < 0) {
    s.fd = openLog(s.options.path);
  } else if (s.needsRotation()) {
    s.rotateAndReopen();  // another process rotated our file away, or it is full
  }
  s.append(line);
  try {
    if (s.needsRotation()) s.rotateAndReopen();
  } catch (const AuditLogError&) {
    // The record is written; the next write tries again before writing,
    // and reports the failure then.
  }
}

}  // namespace toolguard
