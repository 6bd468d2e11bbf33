// The rate-limit counts in one file under TOOLGUARD_HOME, changed under a
// flock and replaced atomically with the approval store's file operations.
//
//   {"version": 1, "format": "toolguard-rate-limits",
//    "windows": [{"key": KEY, "window_ms": 60000, "calls": [MS, ...]}, ...]}
//
// where each MS is a call's time in milliseconds since the Unix epoch.
#include <algorithm>
#include <cstdint>
#include <map>

#include "approval/store_file_io.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/rate_limit_store.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard {
namespace {

using nlohmann::json;

constexpr const char* kStoreFormat = "toolguard-rate-limits";

struct Window {
  int64_t window_ms = 0;
  std::vector<int64_t> calls;  // oldest first
};

using Windows = std::map<std::string, Window>;

int64_t millisecondsOf(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

[[noreturn]] void corrupt(const std::string& path, const std::string& problem) {
  throw RateLimitStoreError(path + ": " + problem +
                            " (the file is kept as it is; calls under a rate limit are denied "
                            "until it is fixed or removed)");
}

Windows parse(const std::string& path, const std::string& bytes) {
  StrictJson parsed = parseStrictJson(bytes, 8);
  if (!parsed.value) corrupt(path, parsed.error);
  const json& doc = *parsed.value;
  if (!doc.is_object() || doc.size() != 3 || doc.value("version", json()) != 1 ||
      doc.value("format", json()) != kStoreFormat || !doc.contains("windows") ||
      !doc["windows"].is_array()) {
    corrupt(path, std::string("not a rate-limit file (expected {\"version\": 1, \"format\": \"") +
                      kStoreFormat + "\", \"windows\": [...]})");
  }
  Windows windows;
  for (size_t i = 0; i < doc["windows"].size(); ++i) {
    const json& w = doc["windows"][i];
    const std::string where = "windows[" + std::to_string(i) + "]";
    if (!w.is_object() || w.size() != 3 || !w.contains("key") || !w["key"].is_string() ||
        !w.contains("window_ms") || !w["window_ms"].is_number_unsigned() || !w.contains("calls") ||
        !w["calls"].is_array()) {
      corrupt(path, where + ": expected {\"key\": text, \"window_ms\": number, \"calls\": [...]}");
    }
    Window& window = windows[w["key"].get<std::string>()];
    if (!window.calls.empty()) corrupt(path, where + ": a key listed twice");
    window.window_ms = w["window_ms"].get<int64_t>();
    for (const json& call : w["calls"]) {
      if (!call.is_number_unsigned()) corrupt(path, where + ".calls: expected times in ms");
      window.calls.push_back(call.get<int64_t>());
    }
    std::sort(window.calls.begin(), window.calls.end());
  }
  return windows;
}

std::string format(const Windows& windows) {
  json list = json::array();
  for (const auto& [key, window] : windows) {
    if (window.calls.empty()) continue;
    list.push_back({{"key", key}, {"window_ms", window.window_ms}, {"calls", window.calls}});
  }
  json doc = {{"version", 1}, {"format", kStoreFormat}, {"windows", std::move(list)}};
  return doc.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

// Calls that left their window by `now` are dropped; so are times more than
// a window ahead (a clock that went back a long way must not block forever).
void prune(Windows& windows, int64_t now) {
  for (auto it = windows.begin(); it != windows.end();) {
    Window& w = it->second;
    std::erase_if(w.calls,
                  [&](int64_t t) { return t + w.window_ms <= now || t > now + w.window_ms; });
    it = w.calls.empty() ? windows.erase(it) : std::next(it);
  }
}

// Runs `step` on the windows of the file at `path` under its lock, `now`
// pruning them first; writes them back when `step` says they changed.
// Returns what `step` returns first.
template <typename Step>
auto change(const std::string& path, Step step, int64_t now) {
  try {
    detail::makeDirectories(path.substr(0, path.rfind('/')));
    detail::ScopeFileLock lock(path);
    Windows windows;
    if (std::optional<detail::FileContents> read = detail::readStoreFile(path)) {
      windows = parse(path, read->bytes);
    }
    prune(windows, now);
    auto [result, changed] = step(windows);
    if (changed) detail::replaceFileAtomically(path, format(windows));
    return result;
  } catch (const ApprovalStoreError& e) {  // the file operations' error, same message
    throw RateLimitStoreError(e.what());
  }
}

class FileRateLimitStore : public RateLimitStore {
 public:
  explicit FileRateLimitStore(std::string home) : path_(std::move(home)) {
    while (path_.size() > 1 && path_.back() == '/') path_.pop_back();
    path_ += "/rate-limits.json";
  }

  RateWindowAdmission admit(const std::vector<RateWindow>& requested,
                            std::chrono::system_clock::time_point now) override {
    const int64_t at = millisecondsOf(now);
    return change(
        path_,
        [&](Windows& windows) {
          RateWindowAdmission admission;
          for (size_t i = 0; i < requested.size(); ++i) {
            auto it = windows.find(requested[i].key);
            if (it == windows.end() || it->second.calls.size() < requested[i].max_calls) continue;
            admission.full = i;
            admission.retry_after = std::chrono::milliseconds(
                std::max<int64_t>(0, it->second.calls.front() + it->second.window_ms - at));
            return std::make_pair(admission, false);
          }
          for (const RateWindow& w : requested) {
            Window& window = windows[w.key];
            window.window_ms = w.window.count();
            window.calls.insert(std::upper_bound(window.calls.begin(), window.calls.end(), at), at);
          }
          admission.admitted = true;
          return std::make_pair(admission, true);
        },
        at);
  }

  void retract(const std::vector<RateWindow>& requested,
               std::chrono::system_clock::time_point counted_at) override {
    const int64_t at = millisecondsOf(counted_at);
    change(
        path_,
        [&](Windows& windows) {
          bool changed = false;
          for (const RateWindow& w : requested) {
            auto it = windows.find(w.key);
            if (it == windows.end()) continue;
            auto call = std::find(it->second.calls.begin(), it->second.calls.end(), at);
            if (call == it->second.calls.end()) continue;
            it->second.calls.erase(call);
            changed = true;
          }
          return std::make_pair(0, changed);
        },
        at);  // what left its window by then has left it now
  }

 private:
  std::string path_;
};

}  // namespace

std::shared_ptr<RateLimitStore> fileRateLimitStore(const std::string& home) {
  if (home.empty()) throw RateLimitStoreError("the rate-limit store needs a home directory");
  return std::make_shared<FileRateLimitStore>(home);
}

}  // namespace toolguard
