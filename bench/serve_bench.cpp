// `toolguard serve` under load, on loopback: decisions a second over
// keep-alive connections (one per benchmark thread) with the file store and
// with PostgreSQL (every decision's audit row committed before its answer),
// and the latency of one decision (p50, p99). The calls are those of
// BM_CheckBatchThroughput, so the two compare directly. The PostgreSQL runs
// are skipped when PostgreSQL is not installed. BM_ServeCheckUnderConnectionFlood
// times one client's checks while a thousand idle and two hundred trickling
// connections from another address are held open; its floor is
// BM_ServeCheckFileStore/threads:1.
#include <benchmark/benchmark.h>
#include <httplib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "support/loopback_connect.hpp"
#include "support/run_binary.hpp"
#include "support/serve_process.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace toolguard::testing;

const char* kCalls[] = {
    R"({"tool":"Bash","args":{"command":"git status && make -j4 test | tail -20"},"context":{"cwd":"/w"}})",
    R"({"tool":"Bash","args":{"command":"echo ok; rm -rf ~"},"context":{"cwd":"/w"}})",
    R"({"tool":"Write","args":{"file_path":"src/a.cpp","content":"x"},"context":{"cwd":"/w"}})",
    R"({"tool":"Read","args":{"file_path":"~/.ssh/id_rsa"},"context":{"cwd":"/w"}})"};

// One service (and database) per store for the whole run.
struct BenchService {
  TempDir dir;
  std::unique_ptr<PgCluster> db;
  std::string store = "file";
  std::string token;
  std::unique_ptr<ServeProcess> server;
  std::string error;

  explicit BenchService(bool postgres, std::vector<std::string> options = {}) {
    std::map<std::string, std::string> env = {
        {"HOME", (dir.path() / "home").string()},
        {"TOOLGUARD_HOME", (dir.path() / "home/.toolguard").string()},
        {"TOOLGUARD_CONFIG_DIR", (dir.path() / "user").string()},
        {"TOOLGUARD_MANAGED_DIR", (dir.path() / "managed").string()}};
    try {
      if (postgres) {
        chmod(dir.path().c_str(), 0755);
        db = std::make_unique<PgCluster>((dir.path() / "pg").string());
        store = db->url();
      }
      RunResult r = runBinary(TOOLGUARD_BINARY,
                              {"serve", "token", "add", "--role", "agent", "--name", "bench",
                               "--owner", "bench", "--store", store},
                              "", env);
      if (r.exit_code != 0) throw std::runtime_error(r.err);
      token = r.out.substr(0, r.out.find('\n'));
      std::vector<std::string> args{"--store", store, "--rate", "1000000000"};
      args.insert(args.end(), options.begin(), options.end());
      server = std::make_unique<ServeProcess>(TOOLGUARD_BINARY, args, env,
                                              (dir.path() / "serve.log").string());
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
};

BenchService& service(bool postgres) {
  static std::mutex mutex;
  static std::unique_ptr<BenchService> file, pg;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<BenchService>& s = postgres ? pg : file;
  if (!s) s = std::make_unique<BenchService>(postgres);
  return *s;
}

void checkOverKeepAlive(benchmark::State& state, BenchService& s) {
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  httplib::Client c("127.0.0.1", s.server->port());
  c.set_keep_alive(true);
  c.set_tcp_nodelay(true);  // the request's head and body go in two writes
  c.set_bearer_token_auth(s.token);
  std::vector<double> latencies;
  latencies.reserve(100000);
  size_t i = static_cast<size_t>(state.thread_index());
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto r = c.Post("/v1/check", kCalls[i++ % 4], "application/json");
    latencies.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
    if (!r || r->status != 200) {
      state.SkipWithError("a request failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
  if (latencies.empty()) return;
  std::sort(latencies.begin(), latencies.end());
  auto at = [&](double q) {
    return latencies[std::min(latencies.size() - 1, static_cast<size_t>(q * latencies.size()))];
  };
  state.counters["p50_us"] = benchmark::Counter(at(0.50), benchmark::Counter::kAvgThreads);
  state.counters["p99_us"] = benchmark::Counter(at(0.99), benchmark::Counter::kAvgThreads);
}

void BM_ServeCheckFileStore(benchmark::State& state) {
  checkOverKeepAlive(state, service(false));
}
BENCHMARK(BM_ServeCheckFileStore)->Threads(1)->Threads(4)->UseRealTime()->MinTime(2.0);

void BM_ServeCheckPostgres(benchmark::State& state) {
  checkOverKeepAlive(state, service(true));
}
BENCHMARK(BM_ServeCheckPostgres)->Threads(8)->Threads(32)->UseRealTime()->MinTime(2.0);

// A thousand connections that send nothing and two hundred that send one
// header line a second (which resets an idle timeout), all held for the
// benchmark's run; the service is allowed that many from one address.
void BM_ServeCheckUnderConnectionFlood(benchmark::State& state) {
  static BenchService flooded(false, {"--max-connections-per-address", "2000"});
  if (!flooded.error.empty()) {
    state.SkipWithError(flooded.error.c_str());
    return;
  }
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  if (files.rlim_cur < 2048 && files.rlim_max >= 2048) {
    files.rlim_cur = 2048;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  const int port = flooded.server->port();
  std::vector<int> idle, trickling;
  for (int i = 0; i < 1000; ++i) {
    if (const int fd = connectFrom("127.0.0.2", port); fd >= 0) idle.push_back(fd);
  }
  for (int i = 0; i < 200; ++i) {
    const int fd = connectFrom("127.0.0.2", port);
    if (fd < 0) continue;
    const std::string head = "POST /v1/check HTTP/1.1\r\nHost: x\r\n";
    ::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    trickling.push_back(fd);
  }
  std::atomic<bool> stop{false};
  std::thread trickle([&] {
    for (int n = 0; !stop; ++n) {
      for (int fd : trickling) {
        const std::string line = "X-Slow-" + std::to_string(n) + ": 1\r\n";
        ::send(fd, line.data(), line.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      for (int i = 0; i < 10 && !stop; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  checkOverKeepAlive(state, flooded);
  state.counters["idle_held"] = static_cast<double>(idle.size());
  state.counters["trickling_held"] = static_cast<double>(trickling.size());
  stop = true;
  trickle.join();
  for (int fd : idle) close(fd);
  for (int fd : trickling) close(fd);
}
BENCHMARK(BM_ServeCheckUnderConnectionFlood)->UseRealTime()->MinTime(3.0);

}  // namespace
