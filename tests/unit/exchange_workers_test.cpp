// The HTTP upstream's answer readers (src/mcp/exchange_workers.hpp): a job
// never waits behind another, idle threads are used again, and waitForJobs
// waits for the jobs still running.
#include "mcp/exchange_workers.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <set>
#include <thread>

namespace toolguard::mcp {
namespace {

using namespace std::chrono_literals;

TEST(ExchangeWorkers, AJobNeverWaitsBehindOneThatBlocks) {
  ExchangeWorkers workers(1);
  std::promise<void> second_ran;
  std::future<void> second = second_ran.get_future();
  std::atomic<bool> first_done{false};
  // The first job waits for the second: on one shared thread both would hang.
  ASSERT_TRUE(workers.run([&] {
    EXPECT_EQ(second.wait_for(5s), std::future_status::ready);
    first_done = true;
  }));
  ASSERT_TRUE(workers.run([&] { second_ran.set_value(); }));
  workers.waitForJobs();
  EXPECT_TRUE(first_done);
}

TEST(ExchangeWorkers, AnIdleThreadTakesTheNextJob) {
  ExchangeWorkers workers(2);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(workers.run([&] {
      const std::lock_guard<std::mutex> hold(mutex);
      threads.insert(std::this_thread::get_id());
    }));
    workers.waitForJobs();
    std::this_thread::sleep_for(100us);  // the thread is idle again
  }
  EXPECT_LE(threads.size(), 3u) << "a thread per job";
}

TEST(ExchangeWorkers, ManyJobsAtOnceAllRunAndWaitForJobsWaitsForThem) {
  ExchangeWorkers workers(4);
  std::atomic<int> ran{0};
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  for (int i = 0; i < 64; ++i) {
    ASSERT_TRUE(workers.run([&] {
      const int now = ++running;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(20ms);
      --running;
      ++ran;
    }));
  }
  workers.waitForJobs();
  EXPECT_EQ(ran, 64);
  EXPECT_GT(most, 8) << "jobs ran one after another";
  // Past the burst, threads beyond the four kept end; later jobs still run.
  ASSERT_TRUE(workers.run([&] { ++ran; }));
  workers.waitForJobs();
  EXPECT_EQ(ran, 65);
}

}  // namespace
}  // namespace toolguard::mcp
