#pragma once
// Internal: the threads that run `toolguard serve`'s handlers. The HTTP
// server's own threads only move bytes (an idle or slow connection costs no
// thread); a request whose headers and body have arrived is handed here.
// Threads are started as work needs them, up to a limit, and leave after a
// while without work; past the limit a bounded queue waits, and past that
// the work is refused at once (the server answers 503) instead of queueing
// without end.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace toolguard::serve {

/// How many threads and how much waiting work.
struct WorkerPoolLimits {
  size_t max_threads = 256;  ///< handlers running at once (some wait for a person)
  size_t max_queued = 1024;  ///< work waiting for a thread; past it trySubmit refuses
  std::chrono::milliseconds idle_exit{30000};  ///< a thread idle this long leaves
};

/// A pool of threads that grows with the work, up to its limits.
class WorkerPool {
 public:
  explicit WorkerPool(WorkerPoolLimits limits);
  /// Runs what was submitted, then joins every thread.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Queues `work` for a thread (starting one when none is free and the
  /// limit allows); false when the queue is full or the pool is stopping.
  bool trySubmit(std::function<void()> work);

  /// Refuses new work, runs what was queued and joins every thread.
  void drain();

  /// Threads running now, and how many of them are busy.
  size_t threads() const;
  size_t busy() const;

 private:
  void run();

  WorkerPoolLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<std::function<void()>> queue_;
  std::vector<std::thread> threads_;
  std::vector<std::thread::id> finished_;  // threads that left, to join
  size_t running_ = 0;                     // threads started and not yet left
  size_t busy_ = 0;                        // threads running work
  bool stopping_ = false;
};

}  // namespace toolguard::serve
