// The handlers' threads: started on demand, up to a limit; a bounded queue
// past it; refused work beyond that.
#include "serve/worker_pool.hpp"

#include <algorithm>

namespace toolguard::serve {

WorkerPool::WorkerPool(WorkerPoolLimits limits) : limits_(limits) {
  limits_.max_threads = std::max<size_t>(1, limits_.max_threads);
}

WorkerPool::~WorkerPool() {
  drain();
}

bool WorkerPool::trySubmit(std::function<void()> work) {
  std::vector<std::thread> leaving;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return false;
    // Threads that left after idling are joined here, outside the lock.
    for (const std::thread::id& id : finished_) {
      auto it = std::find_if(threads_.begin(), threads_.end(),
                             [&](const std::thread& t) { return t.get_id() == id; });
      if (it != threads_.end()) {
        leaving.push_back(std::move(*it));
        threads_.erase(it);
      }
    }
    finished_.clear();
    // Threads not running work (waiting, or just started) take queued work
    // first; work beyond them needs a new thread, or waits in the queue.
    const size_t free_threads = running_ - busy_;
    const bool needs_a_thread = queue_.size() >= free_threads;
    const bool start_one = needs_a_thread && running_ < limits_.max_threads;
    if (needs_a_thread && !start_one && queue_.size() - free_threads >= limits_.max_queued) {
      return false;
    }
    queue_.push_back(std::move(work));
    if (start_one) {
      ++running_;
      threads_.emplace_back([this] { run(); });
    } else {
      work_ready_.notify_one();
    }
  }
  for (std::thread& t : leaving) t.join();
  return true;
}

void WorkerPool::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (queue_.empty()) {
      if (stopping_) break;
      const bool woken = work_ready_.wait_for(lock, limits_.idle_exit,
                                              [&] { return stopping_ || !queue_.empty(); });
      if (!woken) break;  // idle long enough: leave
      continue;
    }
    std::function<void()> work = std::move(queue_.front());
    queue_.pop_front();
    ++busy_;
    lock.unlock();
    work();  // the server's work catches its own exceptions
    work = nullptr;
    lock.lock();
    --busy_;
  }
  --running_;
  if (!stopping_) finished_.push_back(std::this_thread::get_id());
}

void WorkerPool::drain() {
  std::vector<std::thread> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    all.swap(threads_);
    finished_.clear();
  }
  work_ready_.notify_all();
  for (std::thread& t : all) t.join();
}

size_t WorkerPool::threads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

size_t WorkerPool::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_;
}

}  // namespace toolguard::serve
