#pragma once
// Which calls' approval scopes the database's approvals table has no entry
// for, so that an instance asks the database only when it does not know.
// Every change to the table (a trigger NOTIFYs at its commit, and this
// instance's own writes) forgets all of it. Only "none" is remembered: a
// memory that hears of a change late only ever asks a person once more; it
// never grants an approval that was revoked, nor one it never read.

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace toolguard::store {

class EmptyApprovalsMemory {
 public:
  /// How long "none" is believed without hearing of a change (in case the
  /// listener misses one without noticing).
  static constexpr std::chrono::seconds kBelievedFor{5};
  /// At most this many scopes are remembered; then all are forgotten.
  static constexpr size_t kMaxRemembered = 4096;

  /// The table changed, or may have (the listener connected again).
  void changed();
  /// Whether changes are being heard. While not, nothing is remembered;
  /// either way what was remembered is forgotten (changes may have gone
  /// unheard).
  void hearing(bool on);
  /// The table's generation now: read it before the query whose empty
  /// answer is remembered (rememberEmpty).
  uint64_t generation() const;
  /// Whether the scopes `key` had no entry, as far as is known now.
  bool knownEmpty(const std::string& key) const;
  /// The scopes `key` had no entry at `generation` (what a query read).
  void rememberEmpty(const std::string& key, uint64_t generation);

 private:
  mutable std::mutex mutex_;
  uint64_t generation_ = 0;
  bool hearing_ = false;
  // Scopes with no entry at generation_, and when that was read.
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> empty_;
};

}  // namespace toolguard::store
