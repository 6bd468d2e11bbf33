// Per-session caches of the validator's answers: in memory, and in files
// for processes that judge one call each.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "approval/store_layout.hpp"
#include "policy/bounded_file.hpp"
#include "toolguard/llm_validator.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

// The keys an in-memory cache keeps, at most (a key holds a whole call).
constexpr size_t kMaxMemoryCacheBytes = size_t{64} << 20;

// A session file larger than this is neither read nor added to.
constexpr std::uintmax_t kMaxCacheFileBytes = std::uintmax_t{8} << 20;

std::optional<LlmVerdict> verdictNamed(const std::string& name) {
  if (name == "ALLOW") return LlmVerdict::Allow;
  if (name == "DENY") return LlmVerdict::Deny;
  if (name == "ASK") return LlmVerdict::Ask;
  return std::nullopt;
}

// A string member, or "" when it is missing or of another type.
std::string entryString(const json& entry, const char* name) {
  auto it = entry.find(name);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

LlmReview fromCache(LlmVerdict verdict, std::string reason, std::string model) {
  LlmReview j;
  j.verdict = verdict;
  j.reason = std::move(reason);
  j.answered = true;
  j.cached = true;
  j.model = std::move(model);
  j.reading = "cached answer of this session";
  return j;
}

class MemoryCache : public LlmVerdictCache {
 public:
  explicit MemoryCache(size_t max_entries) : max_entries_(std::max<size_t>(max_entries, 1)) {}

  std::optional<LlmReview> find(const std::string& session, const std::string& key) override {
    if (session.empty()) return std::nullopt;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(session + '\0' + key);
    if (it == entries_.end()) return std::nullopt;
    return fromCache(it->second.verdict, it->second.reason, it->second.model);
  }

  void store(const std::string& session, const std::string& key, const LlmReview& j) override {
    if (session.empty() || !j.answered) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::string full = session + '\0' + key;
    if (entries_.insert_or_assign(full, Entry{j.verdict, j.reason, j.model}).second) {
      bytes_ += full.size();
      order_.push_back(std::move(full));
    }
    while (entries_.size() > max_entries_ || bytes_ > kMaxMemoryCacheBytes) {
      bytes_ -= order_.front().size();
      entries_.erase(order_.front());
      order_.pop_front();
    }
  }

 private:
  struct Entry {
    LlmVerdict verdict;
    std::string reason;
    std::string model;
  };
  size_t max_entries_;
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
  std::deque<std::string> order_;  // insertion order, oldest first
  size_t bytes_ = 0;               // size of the keys kept
};

// The session's file name: the 64-bit FNV-1a hash of the id, in hex (the
// session itself is checked on every line, so two sessions sharing a file
// never see each other's answers).
std::string fileNameOf(const std::string& session) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(detail::fnv1a64(session)));
  return std::string(text) + ".jsonl";
}

class FileCache : public LlmVerdictCache {
 public:
  explicit FileCache(std::string dir) : dir_(std::move(dir)) {}

  std::optional<LlmReview> find(const std::string& session, const std::string& key) override {
    if (session.empty()) return std::nullopt;
    std::string text;
    try {  // a regular file only (never a FIFO or a link), bounded in size
      text = detail::readBoundedFile(fileOf(session), kMaxCacheFileBytes, "verdict cache");
    } catch (const std::exception&) {
      return std::nullopt;  // missing or unusable: the model is asked again
    }
    std::optional<LlmReview> found;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) break;  // a line a crash cut short
      json entry = json::parse(text.substr(start, end - start), nullptr, false);
      start = end + 1;
      if (!entry.is_object() || entryString(entry, "session") != session ||
          entryString(entry, "key") != key) {
        continue;  // another session's, or not an entry
      }
      if (auto verdict = verdictNamed(entryString(entry, "verdict"))) {
        found = fromCache(*verdict, entryString(entry, "reason"), entryString(entry, "model"));
      }
    }
    return found;  // the last answer for the key wins
  }

  void store(const std::string& session, const std::string& key, const LlmReview& j) override {
    if (session.empty() || !j.answered) return;
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return;
    const std::string file = fileOf(session);
    json entry = {{"session", session},
                  {"key", key},
                  {"verdict", toString(j.verdict)},
                  {"reason", j.reason},
                  {"model", j.model}};
    std::string line = entry.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    // Never through a link, never blocking on a FIFO, only into a regular
    // file of ours that is not too large already.
    int fd = ::open(file.c_str(),
                    O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
    if (fd < 0) return;
    struct stat st {};
    const bool usable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::getuid() &&
                        static_cast<std::uintmax_t>(st.st_size) + line.size() <= kMaxCacheFileBytes;
    if (usable) {
      // One write of the whole line: concurrent writers append whole lines.
      [[maybe_unused]] ssize_t written = ::write(fd, line.data(), line.size());
    }
    ::close(fd);
  }

 private:
  std::string fileOf(const std::string& session) const {
    return (std::filesystem::path(dir_) / fileNameOf(session)).string();
  }

  std::string dir_;
};

}  // namespace

std::shared_ptr<LlmVerdictCache> memoryLlmVerdictCache(size_t max_entries) {
  return std::make_shared<MemoryCache>(max_entries);
}

std::shared_ptr<LlmVerdictCache> fileLlmVerdictCache(std::string dir) {
  return std::make_shared<FileCache>(std::move(dir));
}

}  // namespace toolguard
