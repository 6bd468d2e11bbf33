// The rate-limit store: the file store's windows, its locking and corrupt
// files, and a Guard counting in it (as every `toolguard check` does).
#include "toolguard/rate_limit_store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "support/calls.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/guard.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace rate_limit_store_test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Time = std::chrono::system_clock::time_point;
using testing::TempDir;

const Time kStart = Time(std::chrono::milliseconds(1'800'000'000'000));

RateWindow window(const std::string& key, size_t max_calls, std::chrono::milliseconds length) {
  return RateWindow{key, max_calls, length};
}

TEST(FileRateLimitStore, NothingIsCreatedUntilACallIsCounted) {
  TempDir dir;
  auto store = fileRateLimitStore((dir.path() / "home").string());
  EXPECT_FALSE(fs::exists(dir.path() / "home"));
  EXPECT_TRUE(store->admit({window("k", 1, 1min)}, kStart).admitted);
  EXPECT_TRUE(fs::exists(dir.path() / "home" / "rate-limits.json"));
  EXPECT_THROW(fileRateLimitStore(""), RateLimitStoreError);
}

TEST(FileRateLimitStore, CountsInASlidingWindow) {
  TempDir dir;
  auto store = fileRateLimitStore(dir.path().string());
  std::vector<RateWindow> w = {window("k", 2, 1min)};
  EXPECT_TRUE(store->admit(w, kStart).admitted);
  EXPECT_TRUE(store->admit(w, kStart + 10s).admitted);
  RateWindowAdmission full = store->admit(w, kStart + 20s);
  EXPECT_FALSE(full.admitted);
  EXPECT_EQ(full.full, 0u);
  EXPECT_EQ(full.retry_after, 40s);  // until the first call leaves the window
  EXPECT_TRUE(store->admit(w, kStart + 60s).admitted);
  EXPECT_FALSE(store->admit(w, kStart + 61s).admitted);
  // Another key counts on its own; a store object of its own sees the same file.
  EXPECT_TRUE(store->admit({window("other", 2, 1min)}, kStart + 61s).admitted);
  EXPECT_FALSE(fileRateLimitStore(dir.path().string())->admit(w, kStart + 62s).admitted);
}

TEST(FileRateLimitStore, AllWindowsMustHaveRoomAndARefusalCountsNothing) {
  TempDir dir;
  auto store = fileRateLimitStore(dir.path().string());
  std::vector<RateWindow> both = {window("a", 5, 1min), window("b", 1, 1min)};
  EXPECT_TRUE(store->admit(both, kStart).admitted);
  RateWindowAdmission refused = store->admit(both, kStart + 1s);
  EXPECT_FALSE(refused.admitted);
  EXPECT_EQ(refused.full, 1u);
  // "a" was not counted by the refused call: four more fit.
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(store->admit({both[0]}, kStart + 2s).admitted) << i;
  EXPECT_FALSE(store->admit({both[0]}, kStart + 2s).admitted);
}

TEST(FileRateLimitStore, RetractGivesThePlaceBack) {
  TempDir dir;
  auto store = fileRateLimitStore(dir.path().string());
  std::vector<RateWindow> w = {window("k", 1, 1h)};
  EXPECT_TRUE(store->admit(w, kStart).admitted);
  EXPECT_FALSE(store->admit(w, kStart + 1s).admitted);
  store->retract(w, kStart);
  EXPECT_TRUE(store->admit(w, kStart + 2s).admitted);
}

TEST(FileRateLimitStore, ACorruptFileIsAnErrorNamingItAndIsKept) {
  TempDir dir;
  for (const std::string& bytes :
       {std::string("{\"version\": 1, \"windows\": [oops"), std::string("[]"),
        std::string(R"({"version":2,"format":"toolguard-rate-limits","windows":[]})"),
        std::string(R"({"version":1,"format":"toolguard-rate-limits","windows":[{"key":"k"}]})"),
        std::string(
            R"({"version":1,"format":"toolguard-rate-limits","windows":[],"windows":[]})")}) {
    fs::path file = dir.write("rate-limits.json", bytes);
    auto store = fileRateLimitStore(dir.path().string());
    try {
      store->admit({window("k", 5, 1min)}, kStart);
      ADD_FAILURE() << "no error for " << bytes;
    } catch (const RateLimitStoreError& e) {
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("kept"), std::string::npos) << e.what();
    }
    EXPECT_THROW(store->retract({window("k", 5, 1min)}, kStart), RateLimitStoreError);
    EXPECT_EQ(testing::slurp(file.string()), bytes);
  }
}

TEST(FileRateLimitStore, OldCallsAreDroppedFromTheFile) {
  TempDir dir;
  auto store = fileRateLimitStore(dir.path().string());
  EXPECT_TRUE(store->admit({window("old", 1, 1s)}, kStart).admitted);
  EXPECT_TRUE(store->admit({window("new", 1, 1min)}, kStart + 10s).admitted);
  nlohmann::json file =
      nlohmann::json::parse(testing::slurp((dir.path() / "rate-limits.json").string()));
  ASSERT_EQ(file["windows"].size(), 1u) << file;
  EXPECT_EQ(file["windows"][0]["key"], "new");
  EXPECT_EQ(file["windows"][0]["calls"][0], 1'800'000'010'000);
}

TEST(FileRateLimitStore, ThreadsWithStoresOfTheirOwnNeverExceedTheLimit) {
  TempDir dir;
  std::atomic<int> admitted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      auto store = fileRateLimitStore(dir.path().string());
      for (int i = 0; i < 5; ++i) {
        if (store->admit({window("k", 7, 1h)}, std::chrono::system_clock::now()).admitted) {
          ++admitted;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(admitted.load(), 7);
}

// Two Guards on one store stand for two `toolguard check` processes.
TEST(GuardWithRateLimitStore, CountsAcrossGuardsAndFailsClosed) {
  TempDir dir;
  Policy policy;
  mergePolicyText(policy, "version: 1\nrate_limits:\n  - {tool: Read, max_calls: 2, window: 1m}\n",
                  "limits.yaml", PolicyLayer::User);
  GuardOptions options;
  options.rate_limit_store = fileRateLimitStore(dir.path().string());
  ToolCall read = testing::makeCall("Read", {{"file_path", "a"}});
  read.context.session = "s";
  EXPECT_EQ(Guard(Engine(policy), options).decide(read).verdict, Verdict::Allow);
  EXPECT_EQ(Guard(Engine(policy), options).decide(read).verdict, Verdict::Allow);
  Decision third = Guard(Engine(policy), options).decide(read);
  EXPECT_EQ(third.verdict, Verdict::Deny);
  EXPECT_EQ(third.basis, DecisionBasis::RateLimit);
  EXPECT_NE(third.reason.find("at most 2 calls of Read"), std::string::npos) << third.reason;
  EXPECT_EQ(third.source.file, "limits.yaml");

  dir.write("rate-limits.json", "not json");
  Decision broken = Guard(Engine(policy), options).decide(read);
  EXPECT_EQ(broken.verdict, Verdict::Deny);
  EXPECT_NE(broken.reason.find("could not be counted"), std::string::npos) << broken.reason;
  // A tool no limit applies to never reads the store.
  EXPECT_EQ(
      Guard(Engine(policy), options).decide(testing::makeCall("Glob", {{"pattern", "*"}})).verdict,
      Verdict::Allow);
}

}  // namespace rate_limit_store_test
}  // namespace toolguard
