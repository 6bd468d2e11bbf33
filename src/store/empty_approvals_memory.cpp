// Which approval scopes are known to be empty, forgotten at every change.
#include "empty_approvals_memory.hpp"

namespace toolguard::store {

void EmptyApprovalsMemory::changed() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++generation_;
  empty_.clear();
}

void EmptyApprovalsMemory::hearing(bool on) {
  std::lock_guard<std::mutex> lock(mutex_);
  hearing_ = on;
  ++generation_;  // what changed while not heard (or from now on) is not known
  empty_.clear();
}

uint64_t EmptyApprovalsMemory::generation() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return generation_;
}

bool EmptyApprovalsMemory::knownEmpty(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!hearing_) return false;
  auto it = empty_.find(key);
  return it != empty_.end() && std::chrono::steady_clock::now() - it->second < kBelievedFor;
}

void EmptyApprovalsMemory::rememberEmpty(const std::string& key, uint64_t generation) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!hearing_ || generation != generation_) return;  // a change came since it was read
  if (empty_.size() >= kMaxRemembered) empty_.clear();
  empty_[key] = now;
}

}  // namespace toolguard::store
