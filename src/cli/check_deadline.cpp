// The deadline of `toolguard check`: SIGALRM answers deny and exits when the
// decision is not ready in time. The handler only calls async-signal-safe
// functions (write, _exit) on bytes prepared before the clock started.
#include "cli/check_deadline.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "cli/commands.hpp"

namespace toolguard::cli {
namespace {

// Set by whoever writes the answer first: the check or its deadline.
std::atomic<bool> answer_claimed{false};
static_assert(std::atomic<bool>::is_always_lock_free, "used in a signal handler");

// The late answer, prepared before the clock starts (never freed: the
// process ends with it).
const std::string* late_out = nullptr;
const std::string* late_err = nullptr;

void writeLateBytes(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

void onDeadline(int) {
  if (answer_claimed.exchange(true)) return;  // the check is writing its answer
  writeLateBytes(STDERR_FILENO, *late_err);
  writeLateBytes(STDOUT_FILENO, *late_out);
  ::_exit(kExitError);
}

}  // namespace

void startCheckDeadline(int seconds, std::string late_stdout, std::string late_stderr) {
  if (seconds <= 0) return;
  late_out = new std::string(std::move(late_stdout));
  late_err = new std::string(std::move(late_stderr));
  struct sigaction action {};
  action.sa_handler = onDeadline;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGALRM, &action, nullptr);
  ::alarm(static_cast<unsigned>(seconds));
}

void claimCheckAnswer() {
  if (!answer_claimed.exchange(true)) return;
  // The deadline's answer is being written and the process ends with it.
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

}  // namespace toolguard::cli
