// terminalApprovalHandler: asks on /dev/tty, one request at a time (within
// this process by a mutex, across processes by a lock on the terminal).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <mutex>
#include <thread>

#include "approval/terminal_internal.hpp"

namespace toolguard {
namespace {

using detail::PromptClock;
using detail::PromptDeadline;

// Closes a file descriptor when it ends.
class TerminalFd {
 public:
  explicit TerminalFd(int fd) : fd_(fd) {}
  ~TerminalFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  TerminalFd(const TerminalFd&) = delete;
  TerminalFd& operator=(const TerminalFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// The device number and file of the terminal behind `tty_fd` (opened as
// /dev/tty): /dev/pts/N for pseudo-terminals, else the name the kernel gives.
bool terminalDevice(int tty_fd, dev_t& device, std::string& path) {
#ifdef TIOCGDEV
  unsigned int number = 0;
  if (::ioctl(tty_fd, TIOCGDEV, &number) != 0) return false;
  device = static_cast<dev_t>(number);
  const unsigned major_number = major(device);
  const unsigned minor_number = minor(device);
  if (major_number >= 136 && major_number <= 143) {
    path = "/dev/pts/" + std::to_string((major_number - 136) * 256 + minor_number);
    return true;
  }
  std::ifstream uevent("/sys/dev/char/" + std::to_string(major_number) + ":" +
                       std::to_string(minor_number) + "/uevent");
  std::string line;
  while (std::getline(uevent, line)) {
    if (line.rfind("DEVNAME=", 0) == 0) {
      path = "/dev/" + line.substr(8);
      return true;
    }
  }
#else
  (void)tty_fd;
  (void)device;
  (void)path;
#endif
  return false;
}

// An exclusive flock() on the terminal's device file, so that two processes
// (say, two hooks for parallel tool calls) do not ask on one terminal at the
// same time. Best effort: without a device file to lock, nothing is locked.
class TerminalLock {
 public:
  TerminalLock(int tty_fd, PromptDeadline deadline) {
    dev_t device = 0;
    std::string path;
    if (!terminalDevice(tty_fd, device, path)) return;
    fd_ = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    struct stat file {};
    if (fd_ < 0 || ::fstat(fd_, &file) != 0 || !S_ISCHR(file.st_mode) || file.st_rdev != device) {
      release();  // not the terminal's device file after all
      return;
    }
    for (;;) {
      if (::flock(fd_, deadline ? LOCK_EX | LOCK_NB : LOCK_EX) == 0) return;
      if (errno == EINTR) continue;
      if (errno == EWOULDBLOCK && deadline) {
        if (PromptClock::now() >= *deadline) {
          timed_out_ = true;
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      break;  // cannot lock: go on without
    }
    release();
  }
  ~TerminalLock() { release(); }
  TerminalLock(const TerminalLock&) = delete;
  TerminalLock& operator=(const TerminalLock&) = delete;

  /// True when another process held the terminal until the deadline.
  bool timedOut() const { return timed_out_; }

 private:
  void release() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
    fd_ = -1;
  }

  int fd_ = -1;
  bool timed_out_ = false;
};

// One prompt at a time in this process, whatever the handler instance: there
// is one terminal.
std::timed_mutex& promptMutex() {
  static std::timed_mutex mutex;
  return mutex;
}

class TerminalHandler final : public ApprovalHandler {
 public:
  explicit TerminalHandler(PromptLayout layout) : layout_(layout) {}

  std::string name() const override { return "terminal"; }

  // Asks at once, on the calling thread; the future is ready when it returns.
  std::future<ApprovalAnswer> ask(const ApprovalRequest& request) override {
    std::promise<ApprovalAnswer> answer;
    try {
      answer.set_value(askNow(request));
    } catch (...) {
      answer.set_exception(std::current_exception());
    }
    return answer.get_future();
  }

 private:
  ApprovalAnswer askNow(const ApprovalRequest& request) const {
    // The time limit counts from here: waiting for another prompt uses it up.
    PromptDeadline deadline;
    if (request.timeout.count() > 0) deadline = PromptClock::now() + request.timeout;

    std::unique_lock<std::timed_mutex> lock(promptMutex(), std::defer_lock);
    if (deadline) {
      if (!lock.try_lock_until(*deadline)) {
        return detail::deniedAnswer(detail::timeoutReason(request.timeout));
      }
    } else {
      lock.lock();
    }

    const TerminalFd tty(::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC));
    if (tty.get() < 0) {
      const int error = errno;
      return detail::deniedAnswer("no terminal to ask on (/dev/tty: " + detail::errorText(error) +
                                  ")");
    }
    if (!::isatty(tty.get())) {
      const int error = errno;
      return detail::deniedAnswer("no terminal to ask on (/dev/tty: " + detail::errorText(error) +
                                  ")");
    }
    const TerminalLock terminal_lock(tty.get(), deadline);
    if (terminal_lock.timedOut()) {
      return detail::deniedAnswer(detail::timeoutReason(request.timeout));
    }
    return detail::promptUntil(tty.get(), tty.get(), request, layout_, deadline);
  }

  PromptLayout layout_;
};

}  // namespace

std::shared_ptr<ApprovalHandler> terminalApprovalHandler(PromptLayout layout) {
  return std::make_shared<TerminalHandler>(layout);
}

}  // namespace toolguard
