// The service's handler threads (src/serve/worker_pool.cpp): they grow with
// the work up to the limit, a bounded queue waits past it, work beyond that
// is refused at once, idle threads leave, and draining runs what was queued.
#include "serve/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>

namespace toolguard::serve {
namespace {

using namespace std::chrono_literals;

// Work that holds its thread until `release` is set.
struct Gate {
  std::promise<void> opened;
  std::shared_future<void> open = opened.get_future().share();
  std::function<void()> work(std::atomic<int>& done) {
    return [open = open, &done] {
      open.wait();
      ++done;
    };
  }
};

TEST(WorkerPool, GrowsToItsLimitQueuesThenRefusesAtOnce) {
  WorkerPool pool({/*max_threads=*/3, /*max_queued=*/2, 30s});
  Gate gate;
  std::atomic<int> done{0};
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(pool.trySubmit(gate.work(done))) << i;
  EXPECT_EQ(pool.threads(), 3u);
  const auto began = std::chrono::steady_clock::now();
  EXPECT_FALSE(pool.trySubmit(gate.work(done))) << "three running and two queued: full";
  EXPECT_LT(std::chrono::steady_clock::now() - began, 1s) << "refused at once";
  gate.opened.set_value();
  pool.drain();
  EXPECT_EQ(done.load(), 5);
  EXPECT_FALSE(pool.trySubmit([] {})) << "a drained pool takes no more work";
}

TEST(WorkerPool, AFreeThreadTakesTheWorkAndIdleThreadsLeave) {
  WorkerPool pool({/*max_threads=*/8, /*max_queued=*/0, 100ms});
  std::atomic<int> done{0};
  for (int i = 0; i < 50; ++i) {
    std::promise<void> finished;
    auto ended = finished.get_future();
    ASSERT_TRUE(pool.trySubmit([&done, &finished] {
      ++done;
      finished.set_value();
    }));
    ended.wait();
    // One thread does it all, one piece after another.
    while (pool.busy() != 0) std::this_thread::yield();
  }
  EXPECT_EQ(done.load(), 50);
  EXPECT_EQ(pool.threads(), 1u);
  for (int i = 0; i < 100 && pool.threads() != 0; ++i) std::this_thread::sleep_for(20ms);
  EXPECT_EQ(pool.threads(), 0u) << "an idle thread leaves after its idle time";
  EXPECT_TRUE(pool.trySubmit([&done] { ++done; })) << "and a new one starts for new work";
  pool.drain();
  EXPECT_EQ(done.load(), 51);
}

}  // namespace
}  // namespace toolguard::serve
