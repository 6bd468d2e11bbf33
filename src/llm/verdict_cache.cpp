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

#include "toolguard/llm_validator.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

// A session file larger than this is neither read nor added to.
constexpr std::uintmax_t kMaxCacheFileBytes = std::uintmax_t{8} << 20;

std::optional<LlmVerdict> verdictNamed(const std::string& name) {
  if (name == "ALLOW") return LlmVerdict::Allow;
  if (name == "DENY") return LlmVerdict::Deny;
  if (name == "ASK") return LlmVerdict::Ask;
  return std::nullopt;
}

LlmJudgement fromCache(LlmVerdict verdict, std::string reason, std::string model) {
  LlmJudgement j;
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

  std::optional<LlmJudgement> find(const std::string& session, const std::string& key) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(session + '\0' + key);
    if (it == entries_.end()) return std::nullopt;
    return fromCache(it->second.verdict, it->second.reason, it->second.model);
  }

  void store(const std::string& session, const std::string& key, const LlmJudgement& j) override {
    if (!j.answered) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::string full = session + '\0' + key;
    if (entries_.insert_or_assign(full, Entry{j.verdict, j.reason, j.model}).second) {
      order_.push_back(std::move(full));
    }
    while (entries_.size() > max_entries_) {
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
};

// 64-bit FNV-1a: the session's file name (the session itself is checked on
// every line, so two sessions sharing a file never see each other's answers).
std::string fileNameOf(const std::string& session) {
  uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : session) hash = (hash ^ c) * 1099511628211ULL;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(text) + ".jsonl";
}

class FileCache : public LlmVerdictCache {
 public:
  explicit FileCache(std::string dir) : dir_(std::move(dir)) {}

  std::optional<LlmJudgement> find(const std::string& session, const std::string& key) override {
    if (session.empty()) return std::nullopt;
    const std::filesystem::path file = std::filesystem::path(dir_) / fileNameOf(session);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec) ||
        std::filesystem::file_size(file, ec) > kMaxCacheFileBytes || ec) {
      return std::nullopt;
    }
    std::ifstream in(file);
    std::optional<LlmJudgement> found;
    std::string line;
    while (std::getline(in, line)) {
      json entry = json::parse(line, nullptr, false);
      if (!entry.is_object() || entry.value("session", "") != session ||
          entry.value("key", "") != key) {
        continue;  // another session's, or a line a crash cut short
      }
      auto verdict = verdictNamed(entry.value("verdict", ""));
      if (verdict) found = fromCache(*verdict, entry.value("reason", ""), entry.value("model", ""));
    }
    return found;  // the last answer for the key wins
  }

  void store(const std::string& session, const std::string& key, const LlmJudgement& j) override {
    if (session.empty() || !j.answered) return;
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return;
    ::chmod(dir_.c_str(), 0700);
    const std::string file = (std::filesystem::path(dir_) / fileNameOf(session)).string();
    if (std::filesystem::file_size(file, ec) > kMaxCacheFileBytes && !ec) return;
    json entry = {{"session", session},
                  {"key", key},
                  {"verdict", toString(j.verdict)},
                  {"reason", j.reason},
                  {"model", j.model}};
    std::string line = entry.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return;
    // One write of the whole line: concurrent writers append whole lines.
    [[maybe_unused]] ssize_t written = ::write(fd, line.data(), line.size());
    ::close(fd);
  }

 private:
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
