// Lines from several threads to the relay loop (mcp/message_pipe.hpp).
#include "message_pipe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <system_error>

namespace toolguard::mcp {

MessagePipe::MessagePipe() {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe");
  read_fd_ = ends[0];
  write_fd_ = ends[1];
  // Writes wait for room by poll, so that a wait on a reader that stopped
  // reading can end.
  ::fcntl(write_fd_, F_SETFL, ::fcntl(write_fd_, F_GETFL) | O_NONBLOCK);
}

MessagePipe::~MessagePipe() {
  closeWriteEnd();
  if (read_fd_ >= 0) ::close(read_fd_);
}

void MessagePipe::deliverTo(std::function<void(std::string_view)> on_line,
                            std::function<bool()> full) {
  on_line_ = std::move(on_line);
  full_ = std::move(full);
}

void MessagePipe::writeLine(std::string line) {
  if (on_line_) {
    // Straight to the receiver, on this thread (no hand-over to the relay
    // loop); a receiver whose client does not read holds the writer back.
    while (full_ && full_() && !stop_waiting_) {
      pollfd none{-1, 0, 0};
      (void)::poll(&none, 1, 10);
    }
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      if (write_fd_ < 0) return;  // ended
    }
    on_line_(line);
    return;
  }
  line.push_back('\n');
  const std::lock_guard<std::mutex> hold(mutex_);
  std::string_view rest = line;
  while (write_fd_ >= 0 && !rest.empty()) {
    const ssize_t n = ::write(write_fd_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      // The reader is slower than the writers (back pressure), unless it is
      // stopping: then the line is dropped, or, when part of it is out
      // already, the pipe ends rather than leave half a line.
      if (stop_waiting_) {
        if (rest.size() != line.size()) {
          ::close(write_fd_);
          write_fd_ = -1;
        }
        return;
      }
      pollfd room{write_fd_, POLLOUT, 0};
      (void)::poll(&room, 1, 100);
      continue;
    }
    if (n <= 0) return;  // the reader is gone
    rest.remove_prefix(static_cast<size_t>(n));
  }
}

void MessagePipe::closeWriteEnd() {
  const std::lock_guard<std::mutex> hold(mutex_);
  if (write_fd_ >= 0) ::close(write_fd_);
  write_fd_ = -1;
}

}  // namespace toolguard::mcp
