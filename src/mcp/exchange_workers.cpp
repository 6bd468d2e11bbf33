// The HTTP upstream's answer readers: idle threads wait for the next job.
#include "mcp/exchange_workers.hpp"

#include <system_error>

namespace toolguard::mcp {

ExchangeWorkers::~ExchangeWorkers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) {
    if (!thread.joinable()) continue;
    // Destroyed by one of its own jobs (the last owner let go there): that
    // thread finishes on its own.
    if (thread.get_id() == std::this_thread::get_id()) {
      thread.detach();
    } else {
      thread.join();
    }
  }
}

bool ExchangeWorkers::run(std::function<void()> job) {
  std::unique_lock lock(mutex_);
  if (stopping_) return false;
  ++running_;
  queued_.push_back(std::move(job));
  // A job never waits behind another: an idle thread takes it, or a new one.
  if (queued_.size() <= idle_) {
    lock.unlock();
    wake_.notify_one();
    return true;
  }
  // Threads that ended (more were idle than kept) are joined here.
  for (auto it = threads_.begin(); it != threads_.end();) {
    if (finished_.count(it->get_id()) != 0) {
      finished_.erase(it->get_id());
      it->join();
      it = threads_.erase(it);
    } else {
      ++it;
    }
  }
  try {
    threads_.emplace_back([this] { work(); });
  } catch (const std::system_error&) {
    queued_.pop_back();
    --running_;
    return false;
  }
  return true;
}

void ExchangeWorkers::waitForJobs() {
  std::unique_lock lock(mutex_);
  quiet_.wait(lock, [this] { return running_ == 0; });
}

void ExchangeWorkers::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (queued_.empty()) {
      if (stopping_) return;
      if (idle_ >= keep_idle_) {
        finished_.insert(std::this_thread::get_id());
        return;
      }
      ++idle_;
      wake_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
      --idle_;
      continue;
    }
    std::function<void()> job = std::move(queued_.front());
    queued_.pop_front();
    lock.unlock();
    job();
    job = nullptr;
    lock.lock();
    if (--running_ == 0) quiet_.notify_all();
  }
}

}  // namespace toolguard::mcp
