// Appending audit records: one write(2) per line with O_APPEND under a lock
// file shared by threads and processes, each line chained to the one before,
// rotation by size with the retention the operator chose.
#include "toolguard/audit_log.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>

#include "audit/audit_detail.hpp"
#include "core/file_descriptor.hpp"
#include "json/compact_dump.hpp"
#include "toolguard/audit_chain.hpp"

namespace toolguard {
namespace {

std::string systemError(int error) {
  return std::generic_category().message(error);
}

AuditLogError logFailure(const std::string& path, const std::string& what, int error) {
  return AuditLogError("audit log " + path + ": " + what + ": " + systemError(error));
}

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
  constexpr int kFlags = O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC;  // read: the last line's hash
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

struct Retention {
  std::vector<std::string> deleted;
  long long through_seq = -1;  // the newest place in the chain of a deleted file
};

// PATH.(N-1) -> PATH.N ... PATH -> PATH.1. With `keep`, the oldest kept
// file is replaced and files beyond it are removed (what was removed is
// returned); without, every file moves up one.
Retention shiftFiles(const std::string& path, std::optional<unsigned> keep) {
  Retention retention;
  auto remove = [&](const std::string& name) {
    const nlohmann::json anchor = detail::firstAnchorOf(name);
    if (::unlink(name.c_str()) != 0) return false;
    retention.deleted.push_back(name);
    if (anchor.is_object() && anchor.value("seq", -1LL) > retention.through_seq) {
      retention.through_seq = anchor.value("seq", -1LL);
    }
    return true;
  };
  if (keep) {
    for (unsigned n = *keep + 1; remove(rotatedName(path, n)); ++n) {
    }
    if (*keep == 0) {
      if (!remove(path) && errno != ENOENT) {
        throw logFailure(path, "cannot remove the full log", errno);
      }
      return retention;
    }
  }
  // Only the files present move: PATH.1 .. PATH.top, the first gap above.
  const unsigned limit = keep ? *keep : std::numeric_limits<unsigned>::max() - 1;
  unsigned top = 0;
  while (top < limit && ::access(rotatedName(path, top + 1).c_str(), F_OK) == 0) ++top;
  if (keep && top == *keep) remove(rotatedName(path, top));  // its place is taken
  for (unsigned n = std::min(top + 1, limit); n >= 2; --n) {
    renameIfPresent(path, rotatedName(path, n - 1), rotatedName(path, n));
  }
  renameIfPresent(path, path, rotatedName(path, 1));
  return retention;
}

// Holds an exclusive flock on a descriptor while in scope. A lock held
// longer than kLockWait (a writer stopped while holding it, or someone
// holding it on purpose) is an error, so the decision is denied instead of
// the hook hanging.
constexpr auto kLockWait = std::chrono::seconds(10);
class ExclusiveLock {
 public:
  ExclusiveLock(int fd, const std::string& path) : fd_(fd) {
    const auto deadline = std::chrono::steady_clock::now() + kLockWait;
    auto pause = std::chrono::microseconds(50);
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno == EINTR) continue;
      if (errno != EWOULDBLOCK) throw logFailure(path, "cannot lock " + path + ".lock", errno);
      if (std::chrono::steady_clock::now() >= deadline) {
        throw AuditLogError("audit log " + path + ": " + path +
                            ".lock is held by another process for over 10 s");
      }
      std::this_thread::sleep_for(pause);
      pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(5));
    }
  }
  ~ExclusiveLock() { ::flock(fd_, LOCK_UN); }
  ExclusiveLock(const ExclusiveLock&) = delete;
  ExclusiveLock& operator=(const ExclusiveLock&) = delete;

 private:
  int fd_;
};

}  // namespace

struct AuditLog::State {
  AuditLogOptions options;
  std::mutex mutex;
  int fd = -1;    // the open log; -1 until the first write, or after a failed reopen
  int lock = -1;  // PATH.lock, held while a line is chained and written
  // The file and its size after our last write, and that line (its hash
  // computed only when another write follows: a hook writes one line): while
  // nobody else wrote, the next write needs no read.
  struct stat written {};
  bool cached = false;
  std::string last_line;
  std::string last_hash;                         // of last_line, once computed
  std::uint64_t appended = 0;                    // bytes append() wrote since it was last reset
  std::function<void(const std::string&)> kept;  // AuditLog::onKept

  ~State() {
    if (fd >= 0) ::close(fd);
    if (lock >= 0) ::close(lock);
  }

  void openLock() {
    const std::string lock_path = options.path + ".lock";
    do {
      lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    } while (lock < 0 && errno == EINTR);
    if (lock < 0) throw logFailure(options.path, "cannot open the lock file " + lock_path, errno);
  }

  bool full(const struct stat& st) const {
    return options.max_bytes > 0 && static_cast<std::uint64_t>(st.st_size) >= options.max_bytes;
  }

  // Our descriptor still names PATH (nobody rotated or removed it); `ours`
  // is then our file as it is now. While our last write is known, PATH
  // naming that same file is enough: one stat, no fstat.
  bool inPlace(struct stat& ours) const {
    struct stat current {};
    if (::stat(options.path.c_str(), &current) != 0) return false;
    if (cached && sameFile(current, written)) {
      ours = current;
      return true;
    }
    return ::fstat(fd, &ours) == 0 && ours.st_nlink > 0 && sameFile(ours, current);
  }

  // A line written: told to whoever ships the audit (nothing it throws
  // undoes the write).
  void tellKept(const std::string& line) const {
    if (!kept) return;
    try {
      kept(line);
    } catch (...) {
    }
  }

  void reopen() {
    const int fresh = openLog(options.path);
    if (fd >= 0) ::close(fd);
    fd = fresh;
  }

  void append(const std::string& line) {
    ssize_t n = -1;
    do {
      n = ::write(fd, line.data(), line.size());
    } while (n < 0 && errno == EINTR);
    if (n < 0) throw logFailure(options.path, "cannot write", errno);
    appended += static_cast<std::uint64_t>(n);
    if (static_cast<size_t>(n) != line.size()) {
      // End the fragment so that the next record is not glued to it (verify
      // reports the fragment); the rest is not written separately.
      std::string what =
          "short write (" + std::to_string(n) + " of " + std::to_string(line.size()) + " bytes)";
      if (::write(fd, "\n", 1) < 0) throw logFailure(options.path, what, errno);
      throw AuditLogError("audit log " + options.path + ": " + what);
    }
  }

  // Writes the anchor that starts this file: it links to `prev` (the hash
  // of the line before it, in this file or the rotated one) and continues
  // that one's chain, or starts a new chain.
  std::string writeAnchor(const std::string& prev, const nlohmann::json& before,
                          const Retention& retention) {
    nlohmann::json anchor = nlohmann::json::object();
    const bool continues = before.is_object() && before.value("chain", "") != "";
    anchor["chain"] = continues ? before.value("chain", "") : detail::randomAuditId();
    anchor["seq"] = continues ? before.value("seq", -1LL) + 1 : 0;
    anchor["store"] = "file";
    if (!retention.deleted.empty()) {
      anchor["retention"] = {{"deleted", retention.deleted},
                             {"through_seq", retention.through_seq},
                             {"keep", options.keep_rotated.value_or(0)}};
    }
    nlohmann::json record = {{"anchor", anchor},
                             {"time", detail::formatAuditTime(std::chrono::system_clock::now())}};
    const std::string text = detail::chainedRecordText(detail::compactDump(record), prev);
    append(text + "\n");
    tellKept(text);
    return auditHash(text);
  }

  // The hash the next line links to, under the lock: our last line's when
  // nobody wrote since, else read from the file's end. A file that is empty,
  // or ends in a line that is not chained, gets an anchor first. `known`:
  // the file as fstat saw it a moment ago under this lock, or null.
  std::string head(const Retention& retention, const struct stat* known = nullptr) {
    struct stat st {};
    if (known != nullptr) {
      st = *known;
    } else if (::fstat(fd, &st) != 0) {
      throw logFailure(options.path, "cannot stat", errno);
    }
    if (cached && sameFile(st, written) && st.st_size == written.st_size) {
      if (last_hash.empty()) last_hash = auditHash(last_line);
      return last_hash;
    }
    if (st.st_size == 0) {
      // A new file: it continues the rotated one, when there is one.
      const std::string older = rotatedName(options.path, 1);
      detail::FileDescriptor previous(::open(older.c_str(), O_RDONLY | O_CLOEXEC));
      struct stat pst {};
      if (previous.get() >= 0 && ::fstat(previous.get(), &pst) == 0 && pst.st_size > 0) {
        bool ended = true;
        const std::string line = detail::lastLogLine(
            previous.get(), static_cast<std::uint64_t>(pst.st_size), older, ended);
        return writeAnchor(auditHash(line), detail::firstAnchorOf(older), retention);
      }
      return writeAnchor(std::string(kAuditGenesisHash), nullptr, retention);
    }
    bool ended = true;
    const std::string line =
        detail::lastLogLine(fd, static_cast<std::uint64_t>(st.st_size), options.path, ended);
    const std::string hash = auditHash(line);
    if (!ended) {
      append("\n");  // a cut-short line stays a line of its own, which verify reports
    } else if (line.find("\"prev_hash\":\"") == std::string::npos) {
      return writeAnchor(hash, nullptr, retention);  // the log of an older toolguard
    }
    return hash;
  }

  // Under the lock: rotates a full file (logging what retention deleted)
  // and starts the new one with its anchor.
  void rotate() {
    Retention retention = shiftFiles(options.path, options.keep_rotated);
    for (const std::string& name : retention.deleted) {
      std::fprintf(stderr, "toolguard: audit log retention (keep %u rotated files) deleted %s\n",
                   options.keep_rotated.value_or(0), name.c_str());
    }
    reopen();
    cached = false;
    last_hash = head(retention);
    last_line.clear();
    cached = true;
    ::fstat(fd, &written);
  }
};

AuditLog::AuditLog(AuditLogOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
}

AuditLog::~AuditLog() = default;

const AuditLogOptions& AuditLog::options() const {
  return state_->options;
}

void AuditLog::onKept(std::function<void(const std::string& line)> kept) {
  std::lock_guard<std::mutex> guard(state_->mutex);
  state_->kept = std::move(kept);
}

void AuditSink::write(const ToolCall& call, const Decision& decision) {
  writeDecision(call, decision, std::chrono::system_clock::now());
}

void AuditSink::writeDecision(const ToolCall& call, const Decision& decision,
                              std::chrono::system_clock::time_point when) {
  writeRecord(auditRecord(call, decision, when));
}

void AuditSink::writeRecordThen(const nlohmann::json& record,
                                std::function<void(std::exception_ptr failed)> done) {
  std::exception_ptr failed;
  try {
    writeRecord(record);
  } catch (...) {
    failed = std::current_exception();
  }
  done(failed);
}

void AuditLog::writeRecord(const nlohmann::json& record) {
  if (!record.is_object()) {
    throw AuditLogError("audit log " + state_->options.path + ": a record must be a JSON object");
  }
  writeText(prepareAuditRecord(record).text);
}

void AuditLog::writeDecision(const ToolCall& call, const Decision& decision,
                             std::chrono::system_clock::time_point when) {
  writeText(detail::auditRecordLine(call, decision, when));
}

void AuditLog::writeText(std::string text) {
  State& s = *state_;
  std::lock_guard<std::mutex> guard(s.mutex);
  if (s.fd < 0) s.reopen();  // creates the directories the lock file needs
  if (s.lock < 0) s.openLock();
  ExclusiveLock lock(s.lock, s.options.path);
  // Four system calls besides the lock when nobody else wrote: fstat and
  // stat here, the write, and none after it (its size is counted).
  struct stat st {};
  bool measured = false;  // `st` is the file as it is now
  if (!s.inPlace(st)) {
    s.reopen();  // another process rotated our file away, or it was removed
  } else if (s.full(st)) {
    s.rotate();
  } else {
    measured = true;
  }
  s.appended = 0;
  std::string line = detail::chainedRecordText(text, s.head({}, measured ? &st : nullptr));
  s.cached = false;
  line += '\n';
  s.append(line);
  line.pop_back();
  s.tellKept(line);
  s.last_line = std::move(line);
  s.last_hash.clear();
  if (measured) {
    s.written = st;
    s.written.st_size = st.st_size + static_cast<off_t>(s.appended);
    s.cached = true;
  } else {
    s.cached = ::fstat(s.fd, &s.written) == 0;
  }
  try {
    if (s.full(s.written)) s.rotate();
  } catch (const AuditLogError&) {
    // The record is written; the next write tries again before writing,
    // and reports the failure then.
  }
}

void AuditSink::writePreparedThen(PreparedAuditRecord record,
                                  std::function<void(std::exception_ptr failed)> done) {
  nlohmann::json value = nlohmann::json::parse(record.text, nullptr, false);
  if (value.is_discarded()) {
    done(std::make_exception_ptr(AuditLogError("a prepared audit record is not JSON")));
    return;
  }
  writeRecordThen(value, std::move(done));
}

std::string detail::auditFailureText(const std::exception_ptr& failed) {
  try {
    if (failed) std::rethrow_exception(failed);
  } catch (const std::exception& e) {
    return std::string("the audit log could not be written: ") + e.what();
  } catch (...) {
  }
  return "the audit log could not be written";
}

AuditLogOptions auditLogOptionsFromEnvironment(AuditLogOptions options) {
  auto number = [](const char* name, const char* text) {
    const std::string_view value = text;
    if (value.empty() || value.size() > 18 ||
        value.find_first_not_of("0123456789") != std::string_view::npos) {
      throw AuditLogError(std::string(name) + ": a whole number, not '" + text + "'");
    }
    return std::stoull(text);
  };
  if (const char* bytes = std::getenv("TOOLGUARD_AUDIT_MAX_BYTES"); bytes && *bytes) {
    options.max_bytes = number("TOOLGUARD_AUDIT_MAX_BYTES", bytes);
  }
  if (const char* keep = std::getenv("TOOLGUARD_AUDIT_KEEP"); keep && *keep) {
    if (std::string_view(keep) == "all") {
      options.keep_rotated.reset();
    } else {
      const unsigned long long n = number("TOOLGUARD_AUDIT_KEEP", keep);
      if (n > 100000) throw AuditLogError("TOOLGUARD_AUDIT_KEEP: at most 100000 (or 'all')");
      options.keep_rotated = static_cast<unsigned>(n);
    }
  }
  return options;
}

}  // namespace toolguard
