#pragma once
// Internal: the threads that read the HTTP upstream's answers. A thread is
// started only when none is idle, and a few idle ones are kept for the next
// messages, so a call does not pay for a thread's start.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace toolguard::mcp {

/// Runs jobs on threads of its own, each job on a thread that is free.
class ExchangeWorkers {
 public:
  /// `keep_idle`: idle threads kept for later jobs (the others end).
  explicit ExchangeWorkers(size_t keep_idle = 8) : keep_idle_(keep_idle) {}
  ~ExchangeWorkers();
  ExchangeWorkers(const ExchangeWorkers&) = delete;
  ExchangeWorkers& operator=(const ExchangeWorkers&) = delete;

  /// Starts `job` now: on an idle thread, else a new one. False when no
  /// thread could be started (the job is not run).
  bool run(std::function<void()> job);
  /// Waits until no job is running.
  void waitForJobs();

 private:
  void work();

  size_t keep_idle_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable quiet_;
  std::deque<std::function<void()>> queued_;
  std::vector<std::thread> threads_;
  std::set<std::thread::id> finished_;  // ended, to be joined
  size_t idle_ = 0;
  size_t running_ = 0;  // jobs queued or running
  bool stopping_ = false;
};

}  // namespace toolguard::mcp
