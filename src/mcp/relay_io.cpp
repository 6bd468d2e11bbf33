// The stop signals, the wake pipe, stderr lines and reads of the MCP proxy's
// relay loops.
#include "mcp/relay_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <string_view>
#include <system_error>

namespace toolguard::mcp {
namespace {

// The stop signals' handler only writes to this pipe.
int g_signal_pipe[2] = {-1, -1};

void onStopSignal(int) {
  int saved = errno;
  char byte = 1;
  [[maybe_unused]] ssize_t n = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

void drainPipe(int fd) {
  char drained[64];
  while (::read(fd, drained, sizeof drained) > 0) {
  }
}

}  // namespace

StopSignals::StopSignals() {
  if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot create a pipe");
  }
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &action, &previous_[i]);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previous_pipe_);
}

StopSignals::~StopSignals() {
  for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
  sigaction(SIGPIPE, &previous_pipe_, nullptr);
  ::close(g_signal_pipe[0]);
  ::close(g_signal_pipe[1]);
  g_signal_pipe[0] = g_signal_pipe[1] = -1;
}

int StopSignals::fd() const {
  return g_signal_pipe[0];
}

void StopSignals::drain() const {
  drainPipe(g_signal_pipe[0]);
}

WakePipe::WakePipe() {
  if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot create a pipe");
  }
}

WakePipe::~WakePipe() {
  ::close(fds_[0]);
  ::close(fds_[1]);
}

void WakePipe::wake() {
  char byte = 1;
  [[maybe_unused]] ssize_t n = ::write(fds_[1], &byte, 1);  // full: a wake-up is pending
}

void WakePipe::drain() {
  drainPipe(fds_[0]);
}

void logLine(const std::string& message) {
  static std::mutex mutex;
  std::string line = message + "\n";
  std::lock_guard lock(mutex);
  std::string_view rest = line;
  while (!rest.empty()) {
    ssize_t n = ::write(STDERR_FILENO, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    rest.remove_prefix(static_cast<size_t>(n));
  }
}

bool readSome(int fd, std::string& buffer) {
  // Read onto the stack and copy what came: growing the string to 64 KiB
  // before each read zero-filled it, some microseconds a message.
  char chunk[size_t{64} << 10];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      buffer.clear();
      return false;
    }
    buffer.assign(chunk, static_cast<size_t>(n));
    return true;
  }
}

}  // namespace toolguard::mcp
