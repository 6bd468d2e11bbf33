// Newline-delimited messages: splitting what is read, writing from a thread.
#include "mcp/line_io.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace toolguard::mcp {

void LineSplitter::take(std::string_view line,
                        const std::function<void(std::string_view)>& on_line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!line.empty()) on_line(line);
}

void LineSplitter::feed(std::string_view bytes,
                        const std::function<void(std::string_view)>& on_line,
                        const std::function<void()>& on_too_long) {
  while (!bytes.empty()) {
    size_t newline = bytes.find('\n');
    std::string_view piece = bytes.substr(0, newline);
    if (skipping_) {
      if (newline != std::string_view::npos) skipping_ = false;
    } else if (partial_.size() + piece.size() >
               max_ + (newline == std::string_view::npos ? 0 : 1)) {
      // Over the limit (a "\r" before the newline is allowed one byte more).
      partial_.clear();
      on_too_long();
      skipping_ = newline == std::string_view::npos;
    } else if (newline == std::string_view::npos) {
      partial_.append(piece);
    } else if (partial_.empty()) {
      take(piece, on_line);  // the common case: no copy
    } else {
      partial_.append(piece);
      take(partial_, on_line);
      partial_.clear();
    }
    if (newline == std::string_view::npos) break;
    bytes.remove_prefix(newline + 1);
  }
}

void LineSplitter::finish(const std::function<void(std::string_view)>& on_line) {
  if (!skipping_) take(partial_, on_line);
  partial_.clear();
  skipping_ = false;
}

LineWriter::LineWriter(int fd, bool owns_fd, std::function<void(const std::string&)> on_error,
                       size_t max_queued_bytes, std::function<void()> on_room)
    : fd_(fd),
      owns_fd_(owns_fd),
      on_error_(std::move(on_error)),
      max_held_(max_queued_bytes),
      on_room_(std::move(on_room)),
      thread_([this] { run(); }) {}

LineWriter::~LineWriter() {
  finish();
}

void LineWriter::push(std::string line) {
  line.push_back('\n');
  {
    std::lock_guard lock(mutex_);
    if (closing_ || broken_) return;
    // Nothing waits before it: written now, when the descriptor takes it
    // without blocking, so a message costs no hand-over to the thread.
    if (queue_.empty() && !writing_ && writes_without_waiting_) {
      iovec part{line.data(), line.size()};
      const ssize_t n = ::pwritev2(fd_, &part, 1, -1, RWF_NOWAIT);
      if (n == static_cast<ssize_t>(line.size())) return;
      if (n > 0) {
        line.erase(0, static_cast<size_t>(n));
      } else if (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS) {
        writes_without_waiting_ = false;  // the thread writes everything
      }
    }
    held_ += line.size();
    queue_.push_back(std::move(line));
  }
  wake_.notify_one();
}

bool LineWriter::full() const {
  std::lock_guard lock(mutex_);
  return held_ >= max_held_;
}

size_t LineWriter::heldBytes() const {
  std::lock_guard lock(mutex_);
  return held_;
}

void LineWriter::closeWhenDrained() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
}

void LineWriter::finish() {
  closeWhenDrained();
  if (thread_.joinable()) thread_.join();
}

void LineWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return !queue_.empty() || closing_; });
    if (queue_.empty()) break;  // closing, and everything is written
    std::string line = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    lock.unlock();
    std::string_view rest = line;
    int error = 0;
    while (!rest.empty()) {
      ssize_t n = ::write(fd_, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = n < 0 ? errno : EIO;
        break;
      }
      rest.remove_prefix(static_cast<size_t>(n));
    }
    lock.lock();
    writing_ = false;
    const bool was_full = held_ >= max_held_;
    held_ -= line.size();
    if (error != 0) {
      broken_ = true;
      queue_.clear();
      held_ = 0;
      lock.unlock();
      if (on_error_) on_error_(std::strerror(error));
      lock.lock();
    }
    if (was_full && held_ < max_held_ && on_room_) {
      lock.unlock();
      on_room_();
      lock.lock();
    }
  }
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace toolguard::mcp
