// `toolguard mcp` in front of the reference filesystem server (tests/mcp-peers)
// with a client that sends requests and stops reading the answers: the proxy
// must stop reading the server and the client once its queue to the client
// is full, so its memory stays bounded, and go on once the client reads.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "e2e/cli_fixture.hpp"
#include "support/prepared_exec.hpp"

// AddressSanitizer: GCC says so with __SANITIZE_ADDRESS__, clang with
// __has_feature (the sanitizer tree is clang's).
#if defined(__SANITIZE_ADDRESS__)
#define TOOLGUARD_BACK_PRESSURE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOOLGUARD_BACK_PRESSURE_SANITIZED 1
#endif
#endif

namespace toolguard::testing {
namespace mcp_back_pressure_test {

using namespace std::chrono_literals;
using nlohmann::json;

const std::string kServer = std::string(MCP_PEERS_DIR) +
                            "/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js";

// The proxy's resident memory in KiB (0 once it is gone).
size_t residentKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  }
  return 0;
}

std::string message(const json& m) {
  return m.dump() + "\n";
}

bool writeAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

class McpBackPressure : public Cli {
 protected:
  // Starts `toolguard mcp ARGS` with pipes for its stdin and stdout.
  void start(const std::vector<std::string>& args) {
    int in[2], out[2];
    ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
    ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
    const std::string err = (dir.path() / "proxy-stderr.txt").string();
    const PreparedExec program(TOOLGUARD_BINARY, args, env());
    pid_ = ::fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (err_fd >= 0) ::dup2(err_fd, 2);
      if (::chdir(dir.path().c_str()) != 0) _exit(127);
      program.exec();
    }
    ::close(in[0]);
    ::close(out[1]);
    to_proxy_ = in[1];
    from_proxy_ = out[0];
  }

  // Ends the proxy: the client stops reading for good, then closes its input.
  int stop() {
    if (from_proxy_ >= 0) ::close(from_proxy_);
    from_proxy_ = -1;
    if (to_proxy_ >= 0) ::close(to_proxy_);
    to_proxy_ = -1;
    int status = 0;
    for (int i = 0; i < 3000; ++i) {  // 30 s
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(10ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return -1;
  }

  ~McpBackPressure() override {
    if (pid_ > 0) stop();
  }

  pid_t pid_ = -1;
  int to_proxy_ = -1;
  int from_proxy_ = -1;
};

TEST_F(McpBackPressure, AClientThatStopsReadingCostsTheProxyABoundedQueue) {
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previous);  // the client's writes to a gone proxy fail

  // 256 KiB of text: each answer carries all of it.
  std::string text;
  while (text.size() < (256u << 10)) text += "a line of the big file, read again and again\n";
  const std::string big = dir.write("ws/big.txt", text).string();
  const std::string policy = dir.write("policies/fs.yaml", R"(version: 1
rules:
  - id: fs-reads
    tool: "mcp__fs__read_*"
    verdict: allow
)")
                                 .string();
  start({"mcp", "--name", "fs", "--workspace", (dir.path() / "ws").string(), "--policy", policy,
         "--ask", "none", "--", NODE_BINARY, kServer, (dir.path() / "ws").string()});
  ASSERT_GT(pid_, 0);

  // The client: initialize, then reads of the big file, never reading what
  // comes back: 64 first (16 MiB of answers, twice the proxy's bound), then,
  // once the proxy holds answers it cannot deliver, up to 2,000 more. Its
  // writes block once the proxy stops reading it.
  constexpr int kFirst = 64;
  constexpr int kCalls = 2000;
  std::atomic<int> sent{0};
  std::atomic<bool> more{false};
  std::atomic<bool> quit{false};
  std::thread client([&] {
    const json init = {{"jsonrpc", "2.0"},
                       {"id", 0},
                       {"method", "initialize"},
                       {"params",
                        {{"protocolVersion", "2025-06-18"},
                         {"capabilities", json::object()},
                         {"clientInfo", {{"name", "slow-reader"}, {"version", "1"}}}}}};
    if (!writeAll(to_proxy_, message(init))) return;
    // Its answer is the last thing the client reads: the server is up.
    for (char c = 0; c != '\n';) {
      if (::read(from_proxy_, &c, 1) != 1) return;
    }
    if (!writeAll(to_proxy_,
                  message({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}})))
      return;
    for (int i = 1; i <= kCalls && !quit; ++i) {
      while (i > kFirst && !more && !quit) std::this_thread::sleep_for(5ms);
      const json call = {{"jsonrpc", "2.0"},
                         {"id", i},
                         {"method", "tools/call"},
                         {"params", {{"name", "read_text_file"}, {"arguments", {{"path", big}}}}}};
      if (!writeAll(to_proxy_, message(call))) return;
      ++sent;
    }
  });

  // Phase 1: the first answers pile up in the proxy (its memory grows by
  // about its 8 MiB bound). Phase 2: the client sends more, until its
  // writes have been stuck for 2 s.
  size_t baseline = 0, peak = 0, steady_rss = 0;
  auto steady_since = std::chrono::steady_clock::now();
  int last_sent = -1;
  auto unchanged_since = std::chrono::steady_clock::now();
  const auto deadline = unchanged_since + 90s;
  while (std::chrono::steady_clock::now() < deadline) {
    const size_t rss = residentKiB(pid_);
    const int now_sent = sent;
    if (baseline == 0 && now_sent > 0) baseline = rss;  // initialized
    peak = std::max(peak, rss);
    if (!more) {
      // Full: it held 6 MiB and has stopped reading the server (steady for 1 s).
      if (now_sent != kFirst || rss < baseline + 6 * 1024 || rss > steady_rss + 64) {
        steady_rss = rss;
        steady_since = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - steady_since > 1s) {
        more = true;
      }
      unchanged_since = std::chrono::steady_clock::now();
    } else if (now_sent != last_sent) {
      last_sent = now_sent;
      unchanged_since = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - unchanged_since > 2s) {
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(more) << "the proxy never held 6 MiB of answers: peak " << peak << " KiB, at start "
                    << baseline;
  const int stuck_at = sent;
  // The proxy stopped reading the client: not every request got through
  // (the pipe holds about 400 of them).
  EXPECT_LT(stuck_at, kCalls) << "the proxy read every request of a client that does not read; "
                              << "its stderr:\n"
                              << slurp((dir.path() / "proxy-stderr.txt").string());
#ifndef TOOLGUARD_BACK_PRESSURE_SANITIZED
  // 8 MiB of queued answers, plus one being read and the proxy itself.
  // (Under AddressSanitizer freed memory stays in quarantine: RSS says little.)
  EXPECT_LT(peak, baseline + 48u * 1024) << "peak " << peak << " KiB, at start " << baseline;
#endif
  std::cout << "[ measured ] proxy RSS " << baseline << " KiB after initialize, peak " << peak
            << " KiB; the client was stuck after " << stuck_at << " of " << kCalls << " requests\n";

  // The client reads again: the answers flow and so do its requests. (On a
  // loaded machine a client that only paused for 2 s may send its next 50
  // before the first read: read until an answer came either way.)
  std::string buffer(1 << 20, '\0');
  size_t answers = 0;
  const auto read_until = std::chrono::steady_clock::now() + 30s;
  while ((sent < stuck_at + 50 || answers == 0) && std::chrono::steady_clock::now() < read_until) {
    ssize_t n = ::read(from_proxy_, buffer.data(), buffer.size());
    if (n <= 0) break;
    answers += static_cast<size_t>(std::count(buffer.begin(), buffer.begin() + n, '\n'));
  }
  EXPECT_GE(sent, stuck_at + 50);
  EXPECT_GE(answers, 1u);

  quit = true;
  if (from_proxy_ >= 0) ::close(from_proxy_);  // unblocks the client's writes
  from_proxy_ = -1;
  client.join();
  EXPECT_NE(stop(), -1) << "the proxy did not exit; its stderr:\n"
                        << slurp((dir.path() / "proxy-stderr.txt").string());
  sigaction(SIGPIPE, &previous, nullptr);
}

}  // namespace mcp_back_pressure_test
}  // namespace toolguard::testing

#undef TOOLGUARD_BACK_PRESSURE_SANITIZED
