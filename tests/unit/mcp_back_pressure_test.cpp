// Back pressure in the MCP proxy: a peer that does not read costs a bounded
// queue, and the proxy stops reading the other side until it drains.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "mcp/line_io.hpp"
#include "support/temp_dir.hpp"
#include "toolguard/mcp_proxy.hpp"

namespace toolguard {
namespace mcp_back_pressure_test {

using namespace std::chrono_literals;

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    closeRead();
    closeWrite();
  }
  void closeRead() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void closeWrite() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

// A write to a pipe nobody reads any more fails instead of killing the test.
struct IgnoreSigpipe {
  struct sigaction previous {};
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &previous);
  }
  ~IgnoreSigpipe() { sigaction(SIGPIPE, &previous, nullptr); }
};

// Reads up to `bytes` from `fd` (fewer at the end of the stream).
size_t drain(int fd, size_t bytes) {
  std::string buffer(64 << 10, '\0');
  size_t total = 0;
  while (total < bytes) {
    ssize_t n = ::read(fd, buffer.data(), std::min(buffer.size(), bytes - total));
    if (n <= 0) break;
    total += static_cast<size_t>(n);
  }
  return total;
}

template <typename Condition>
bool waitFor(Condition condition, std::chrono::milliseconds limit = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

TEST(McpLineWriter, IsFullAtItsBoundAndSaysWhenItHasRoomAgain) {
  IgnoreSigpipe no_sigpipe;
  Pipe pipe;  // nobody reads it (yet)
  std::atomic<int> room{0};
  mcp::LineWriter writer(pipe.write, false, nullptr, 256 << 10, [&] { ++room; });
  const std::string line(1023, 'x');  // 1 KiB with its newline
  size_t pushed = 0;
  while (pushed < 10000) {
    if (writer.full()) {  // still full once the writer has filled the pipe?
      std::this_thread::sleep_for(50ms);
      if (writer.full()) break;
    }
    writer.push(line);
    ++pushed;
  }
  ASSERT_TRUE(writer.full());
  // The pipe took what it could (64 KiB); the bound holds the rest.
  EXPECT_LT(pushed, 400u);
  EXPECT_GE(writer.heldBytes(), size_t{256} << 10);
  room = 0;
  // Reading the pipe drains the writer below its bound: it says so once.
  EXPECT_GT(drain(pipe.read, 128 << 10), 0u);
  ASSERT_TRUE(waitFor([&] { return room > 0; }));
  EXPECT_FALSE(writer.full());
  EXPECT_EQ(room, 1);
  pipe.closeRead();  // the rest fails: a broken writer holds nothing
  writer.finish();
  EXPECT_EQ(writer.heldBytes(), 0u);
}

TEST(McpLineWriter, ABrokenWriterIsNeverFull) {
  IgnoreSigpipe no_sigpipe;
  Pipe pipe;
  std::atomic<int> room{0};
  std::atomic<int> errors{0};
  mcp::LineWriter writer(
      pipe.write, false, [&](const std::string&) { ++errors; }, 64 << 10, [&] { ++room; });
  const std::string line(4095, 'x');
  for (int i = 0; i < 64; ++i) writer.push(line);  // 256 KiB: full
  ASSERT_TRUE(waitFor([&] { return writer.full(); }));
  pipe.closeRead();  // the peer went away: writes fail (SIGPIPE is ignored here)
  ASSERT_TRUE(waitFor([&] { return errors > 0 && room > 0; }));
  EXPECT_FALSE(writer.full());
  EXPECT_EQ(writer.heldBytes(), 0u);
}

// Lines go out at once while the pipe takes them, through the thread once
// it does not; whichever way, in the order they were pushed, each whole.
TEST(McpLineWriter, LinesWrittenAtOnceOrByItsThreadKeepTheirOrder) {
  IgnoreSigpipe no_sigpipe;
  Pipe pipe;
  mcp::LineWriter writer(pipe.write, false, nullptr, 64 << 20);
  std::string received;
  std::thread reader([&] {
    char buffer[4096];
    for (;;) {
      // A slow reader: the pipe fills, and the writer's thread takes over.
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      const ssize_t n = ::read(pipe.read, buffer, sizeof buffer);
      if (n <= 0) break;
      received.append(buffer, static_cast<size_t>(n));
    }
  });
  std::string expected;
  for (int i = 0; i < 20000; ++i) {
    std::string line = std::to_string(i) + std::string(static_cast<size_t>(i % 97), 'y');
    expected += line + "\n";
    writer.push(std::move(line));
    if (i % 5000 == 0) std::this_thread::sleep_for(20ms);  // drains: direct writes again
  }
  writer.finish();
  pipe.closeWrite();
  reader.join();
  EXPECT_EQ(received.size(), expected.size());
  EXPECT_TRUE(received == expected) << "lines out of order or torn";
}

// A server that writes 1 KiB notifications as fast as it may, and counts
// them in a file (a server the proxy could otherwise read without end).
const char* const kChattyServer = R"(import os, sys
count_file = sys.argv[1]
line = ('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"'
        + 'x' * 960 + '"}}\n').encode()
out = sys.stdout.buffer
n = 0
while True:
    out.write(line)
    out.flush()
    n += 1
    if n % 16 == 0:
        with open(count_file + '.tmp', 'w') as f:
            f.write(str(n))
        os.replace(count_file + '.tmp', count_file)
)";

size_t countIn(const std::filesystem::path& file) {
  std::ifstream in(file);
  size_t n = 0;
  in >> n;
  return n;
}

// The count once it has not changed for `quiet` (or once past `limit`).
size_t settledCount(const std::filesystem::path& file, size_t limit,
                    std::chrono::milliseconds quiet = 700ms) {
  size_t last = countIn(file);
  auto changed = std::chrono::steady_clock::now();
  const auto deadline = changed + 20s;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
    size_t now = countIn(file);
    if (now > limit) return now;
    if (now != last) {
      last = now;
      changed = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - changed > quiet && now > 0) {
      return now;
    }
  }
  return last;
}

TEST(McpProxyBackPressure, AClientThatDoesNotReadStopsTheProxyReadingTheServer) {
  testing::TempDir dir;
  const std::filesystem::path script = dir.write("chatty.py", kChattyServer);
  const std::filesystem::path count = dir.path() / "count";
  Pipe client_in;   // the test never writes: the client says nothing
  Pipe client_out;  // and does not read
  McpProxyOptions options;
  options.server_name = "chatty";
  options.command = {"python3", script.string(), count.string()};
  options.context.cwd = dir.path().string();
  options.ask = McpAskChannel::None;
  options.shutdown_grace = 200ms;
  options.max_queued_bytes = size_t{1} << 20;
  int exit_code = -1;
  std::thread proxy([&] {
    exit_code = runMcpProxy(client_in.read, client_out.write, Policy{}, GuardOptions{}, options);
  });

  // 1 MiB queued, plus what the pipes and one read hold: about 1,300 lines.
  // Without back pressure the proxy reads the server without end.
  const size_t stalled = settledCount(count, 20000);
  EXPECT_GT(stalled, 900u);
  EXPECT_LT(stalled, 2000u) << "the proxy kept reading a server whose client does not read";

  // The client reads: the queue drains and the proxy reads the server again.
  EXPECT_EQ(drain(client_out.read, 4 << 20), size_t{4} << 20);
  EXPECT_TRUE(waitFor([&] { return countIn(count) > stalled + 2000; }));

  // The client goes away: its writes fail, its input ends, the server is stopped.
  client_out.closeRead();
  client_in.closeWrite();
  proxy.join();
  EXPECT_EQ(exit_code, 0);
}

}  // namespace mcp_back_pressure_test
}  // namespace toolguard
