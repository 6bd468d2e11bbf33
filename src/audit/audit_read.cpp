// Reading the audit log and its rotated files back, oldest first, filtered;
// with a limit (`last`), from the end, stopping once it is reached.
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <optional>
#include <system_error>
#include <utility>

#include "audit/audit_detail.hpp"
#include "core/file_descriptor.hpp"
#include "toolguard/audit_chain.hpp"
#include "toolguard/audit_log.hpp"
#include "toolguard/rule.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

AuditLogError readFailure(const std::string& file, const std::string& what, int error) {
  return AuditLogError("audit log " + file + ": " + what + ": " +
                       std::generic_category().message(error));
}

struct LogFile {
  std::string path;
  detail::FileDescriptor fd;
};

// The numbers N of the rotated files PATH.N present in PATH's directory.
std::vector<unsigned long> rotatedNumbers(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".";
  std::vector<unsigned long> numbers;
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) {
    // Cannot list: look for PATH.1, PATH.2, ... in turn.
    for (unsigned long n = 1; ::access((path + "." + std::to_string(n)).c_str(), F_OK) == 0; ++n) {
      numbers.push_back(n);
    }
    return numbers;
  }
  while (const dirent* entry = ::readdir(listing)) {
    const std::string_view name = entry->d_name;
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view suffix = name.substr(prefix.size());
    if (suffix.size() > 9 || suffix[0] == '0' ||
        !std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    numbers.push_back(std::stoul(std::string(suffix)));
  }
  ::closedir(listing);
  return numbers;
}

// Opens PATH.N ... PATH.1, PATH (oldest first) while holding PATH.lock
// shared, so that no rotation happens between listing and opening; reading
// the open files afterwards is unaffected by later rotations. The lock file
// is made when it is not there yet (a log no writer of this toolguard has
// locked): else the first writer could rotate PATH between the listing and
// the opening, and a page read then would hold only the new file's records.
// A reader that may not make it reads without the lock.
std::vector<LogFile> openLogFiles(const std::string& path) {
  const std::string lock_path = path + ".lock";
  detail::FileDescriptor lock(::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (lock.get() < 0 && errno == ENOENT && ::access(path.c_str(), F_OK) == 0) {
    lock = detail::FileDescriptor(::open(lock_path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0600));
  }
  if (lock.get() >= 0) {
    while (::flock(lock.get(), LOCK_SH) != 0 && errno == EINTR) {
    }
  }
  std::vector<unsigned long> numbers = rotatedNumbers(path);
  std::sort(numbers.begin(), numbers.end(), std::greater<>());
  std::vector<std::string> names;
  for (unsigned long n : numbers) names.push_back(path + "." + std::to_string(n));
  names.push_back(path);
  std::vector<LogFile> files;
  for (const std::string& name : names) {
    int fd = -1;
    do {
      fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      if (errno == ENOENT) continue;  // not there (or removed meanwhile): nothing to read
      throw readFailure(name, "cannot read", errno);
    }
    files.push_back({name, detail::FileDescriptor(fd)});
  }
  return files;
}

// A line as a record, or nullopt when it is not a JSON object (or nested
// deeper than any record the log writes).
std::optional<json> parseRecord(const std::string& line) {
  constexpr int kMaxDepth = static_cast<int>(kMaxArgumentDepth) + 8;
  bool too_deep = false;
  json value = json::parse(
      line,
      [&too_deep](int depth, json::parse_event_t, json&) {
        if (depth > kMaxDepth) too_deep = true;
        return !too_deep;
      },
      false);
  if (too_deep || !value.is_object()) return std::nullopt;
  return value;
}

bool isAnchor(const json& record) {
  auto it = record.find("anchor");
  return it != record.end() && it->is_object();
}

// The number of the line that starts at byte `offset` of the file.
size_t lineNumberAt(const LogFile& file, std::uint64_t offset) {
  size_t number = 1;
  char buffer[64 * 1024];
  for (std::uint64_t at = 0; at < offset;) {
    const size_t want = static_cast<size_t>(std::min<std::uint64_t>(sizeof buffer, offset - at));
    const ssize_t n = ::pread(file.fd.get(), buffer, want, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    number += static_cast<size_t>(std::count(buffer, buffer + n, '\n'));
    at += static_cast<std::uint64_t>(n);
  }
  return number;
}

class RecordCollector {
 public:
  explicit RecordCollector(const AuditQuery& query) : query_(query) {}

  void line(const LogFile& file, size_t number, std::string& text) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) return;
    std::optional<json> record = parseRecord(text);
    if (!record) {
      keep({{"unreadable", std::move(text)}, {"file", file.path}, {"line", number}});
    } else if (!isAnchor(*record) && auditRecordMatches(*record, query_)) {
      keep(std::move(*record));
    }
  }

  // Reading newest first: the line at `offset` (its number is counted only
  // when it is reported). False once enough records are kept, or the
  // records are older than the query's start.
  bool lineBackwards(const LogFile& file, std::uint64_t offset, std::string& text) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) return true;
    std::optional<json> record = parseRecord(text);
    if (!record) {
      kept_.push_front({{"unreadable", std::move(text)},
                        {"file", file.path},
                        {"line", lineNumberAt(file, offset)}});
    } else if (isAnchor(*record)) {
      return true;
    } else if (auditRecordMatches(*record, query_)) {
      kept_.push_front(std::move(*record));
    } else if (query_.since) {
      // Records are appended in the order they are decided, give or take a
      // writer's delay: well before the start, nothing older can match.
      auto time = parseAuditTime(detail::recordString(*record, "time"));
      if (time && *time < *query_.since - std::chrono::minutes(5)) return false;
    }
    return kept_.size() < query_.last;
  }

  std::vector<json> take() {
    return {std::make_move_iterator(kept_.begin()), std::make_move_iterator(kept_.end())};
  }

 private:
  void keep(json value) {
    kept_.push_back(std::move(value));
    if (query_.last > 0 && kept_.size() > query_.last) kept_.pop_front();
  }

  const AuditQuery& query_;
  std::deque<json> kept_;
};

// Reads `file` from its end, one line at a time (newest first), until the
// collector has enough; false when it has.
bool readLinesBackwards(const LogFile& file, RecordCollector& collector) {
  const off_t size = ::lseek(file.fd.get(), 0, SEEK_END);
  if (size < 0) throw readFailure(file.path, "cannot read", errno);
  std::string reversed;  // the current line, back to front
  char buffer[64 * 1024];
  auto flush = [&](std::uint64_t offset) {
    std::string text(reversed.rbegin(), reversed.rend());
    reversed.clear();
    return collector.lineBackwards(file, offset, text);
  };
  std::uint64_t at = static_cast<std::uint64_t>(size);
  bool first = true;  // the file's last byte: a final newline ends no line
  while (at > 0) {
    const size_t n = static_cast<size_t>(std::min<std::uint64_t>(sizeof buffer, at));
    at -= n;
    size_t done = 0;
    while (done < n) {
      const ssize_t got =
          ::pread(file.fd.get(), buffer + done, n - done, static_cast<off_t>(at + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw readFailure(file.path, "cannot read", got < 0 ? errno : EIO);
      done += static_cast<size_t>(got);
    }
    for (size_t i = n; i-- > 0;) {
      if (buffer[i] == '\n') {
        if (!first && !flush(at + i + 1)) return false;
      } else {
        reversed += buffer[i];
      }
      first = false;
    }
  }
  return reversed.empty() || flush(0);
}

void readLines(const LogFile& file, RecordCollector& collector) {
  std::string pending;  // the start of a line not yet ended
  size_t number = 0;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(file.fd.get(), buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw readFailure(file.path, "cannot read", errno);
    }
    if (n == 0) break;
    std::string_view chunk(buffer, static_cast<size_t>(n));
    for (size_t newline; (newline = chunk.find('\n')) != std::string_view::npos;) {
      pending.append(chunk.substr(0, newline));
      collector.line(file, ++number, pending);
      pending.clear();
      chunk.remove_prefix(newline + 1);
    }
    pending.append(chunk);
  }
  if (!pending.empty()) collector.line(file, ++number, pending);
}

}  // namespace

std::vector<nlohmann::json> readAuditLog(const std::string& path, const AuditQuery& query) {
  std::vector<LogFile> files = openLogFiles(path);
  RecordCollector collector(query);
  if (query.last > 0) {
    // The newest first, stopping at `last`: a page never reads the whole log.
    for (auto file = files.rbegin(); file != files.rend(); ++file) {
      if (!readLinesBackwards(*file, collector)) break;
    }
  } else {
    for (const LogFile& file : files) readLines(file, collector);
  }
  return collector.take();
}

AuditChainReport verifyAuditLog(const std::string& path, const std::string& expected_head) {
  std::vector<LogFile> files = openLogFiles(path);
  AuditChainVerifier verifier(expected_head);
  for (const LogFile& file : files) {
    // The file's name as the reader gave it, then the line: audit.jsonl.2:14.
    std::string pending;
    size_t number = 0;
    char buffer[64 * 1024];
    auto line = [&] {
      verifier.next(pending, file.path + ":" + std::to_string(++number));
      pending.clear();
    };
    for (;;) {
      const ssize_t n = ::read(file.fd.get(), buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw readFailure(file.path, "cannot read", errno);
      if (n == 0) break;
      std::string_view chunk(buffer, static_cast<size_t>(n));
      for (size_t newline; (newline = chunk.find('\n')) != std::string_view::npos;) {
        pending.append(chunk.substr(0, newline));
        line();
        chunk.remove_prefix(newline + 1);
      }
      pending.append(chunk);
    }
    if (!pending.empty()) line();
  }
  return verifier.finish();
}

bool auditRecordMatches(const json& record, const AuditQuery& query) {
  if (query.since || query.until) {
    auto time = parseAuditTime(detail::recordString(record, "time"));
    if (!time) return false;
    if (query.since && *time < *query.since) return false;
    if (query.until && *time >= *query.until) return false;
  }
  if (!query.tool.empty() && !toolNameMatches(query.tool, detail::recordString(record, "tool"))) {
    return false;
  }
  if (!query.verdict.empty() && detail::recordString(record, "verdict") != query.verdict)
    return false;
  if (!query.rule.empty() && !toolNameMatches(query.rule, detail::recordString(record, "rule"))) {
    return false;
  }
  if (!query.agent.empty()) {
    const json* context = record.contains("context") ? &record["context"] : nullptr;
    const std::string_view agent = context != nullptr && context->is_object()
                                       ? detail::recordString(*context, "agent")
                                       : detail::recordString(record, "agent");
    if (!toolNameMatches(query.agent, agent)) return false;
  }
  return true;
}

std::string_view detail::recordString(const json& record, const char* key) {
  auto it = record.find(key);
  if (it == record.end() || !it->is_string()) return {};
  return it->get_ref<const std::string&>();
}

}  // namespace toolguard
