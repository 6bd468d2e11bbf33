#pragma once
// Internal: what `toolguard serve` counts, in Prometheus's text format:
// decisions by verdict and rule, decision latency, asks, store errors,
// refused requests and policy reloads.

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <string>

namespace toolguard::serve {

/// Counters shared by every request thread.
class Metrics {
 public:
  /// One decision answered, after `seconds`.
  void decision(const std::string& verdict, const std::string& rule, double seconds);
  void storeError() { ++store_errors_; }
  void refused(int status);
  void policyReload(bool ok);
  void askAnswered() { ++asks_answered_; }

  /// The text /metrics serves; `pending_asks` is read from the store by the caller (-1: unknown).
  std::string render(long pending_asks) const;

 private:
  static constexpr std::array<double, 12> kBuckets{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                   0.01,   0.025,   0.05,   0.1,   1.0,    10.0};
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, unsigned long> decisions_;
  std::array<unsigned long, kBuckets.size() + 1> latency_{};
  double latency_sum_ = 0;
  unsigned long latency_count_ = 0;
  std::map<int, unsigned long> refused_;
  std::atomic<unsigned long> store_errors_{0};
  std::atomic<unsigned long> asks_answered_{0};
  std::atomic<unsigned long> reloads_ok_{0};
  std::atomic<unsigned long> reloads_failed_{0};
  std::atomic<int> policy_ok_{1};
};

}  // namespace toolguard::serve
