#pragma once
// Where rate-limit windows are counted when the counts must outlive one
// process: each `toolguard check` is a process of its own (a hook runs one
// per tool call), and several `toolguard serve` instances will share one
// store. The file store keeps the counts under TOOLGUARD_HOME; a database
// store implements the same interface.

#include <chrono>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace toolguard {

/// A store that cannot be read, parsed or written. The message names the
/// file (or the store) and the problem. Calls a limit applies to are denied
/// while it lasts (fail closed); a corrupt file is kept as it is.
class RateLimitStoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One sliding window: at most `max_calls` calls per `window`, counted
/// under `key` (which names the limit and who it counts for: a session or
/// an agent; see RateLimiter).
struct RateWindow {
  std::string key;
  size_t max_calls = 0;
  std::chrono::milliseconds window{0};
};

/// The answer of RateLimitStore::admit.
struct RateWindowAdmission {
  bool admitted = false;
  size_t full = 0;                           ///< refused: the index of a full window
  std::chrono::milliseconds retry_after{0};  ///< refused: until its oldest call leaves it
};

/// Counts calls in sliding windows, shared by every process and thread that
/// uses the same store.
class RateLimitStore {
 public:
  virtual ~RateLimitStore() = default;

  /// Atomically: when every window has room at `now`, counts one call at
  /// `now` in each and admits; otherwise counts nothing and names a full
  /// window. Throws RateLimitStoreError.
  virtual RateWindowAdmission admit(const std::vector<RateWindow>& windows,
                                    std::chrono::system_clock::time_point now) = 0;

  /// Takes back the call counted at `counted_at` in each window (it did not
  /// run after all). Throws RateLimitStoreError.
  virtual void retract(const std::vector<RateWindow>& windows,
                       std::chrono::system_clock::time_point counted_at) = 0;
};

/// The file store: `<home>/rate-limits.json`, changed under an exclusive
/// flock on `<home>/rate-limits.json.lock` and replaced atomically
/// (temporary file, fsync, rename, fsync of the directory), like the
/// approval store. Nothing is read or created until a call is counted.
/// Calls that left their window are dropped on every change. A file that
/// cannot be parsed is reported (RateLimitStoreError naming it) and never
/// overwritten. Safe for many threads and processes.
std::shared_ptr<RateLimitStore> fileRateLimitStore(const std::string& home);

}  // namespace toolguard
