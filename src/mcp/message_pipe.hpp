#pragma once
// Internal: the pipe that carries a server's messages, one per line, to the
// proxy's relay loop, written from several threads (http_upstream.cpp).
#include <atomic>
#include <functional>
#include <mutex>
#include <string>

namespace toolguard::mcp {

/// A pipe's two ends: whole lines go in under one lock; the write end waits
/// for room (back pressure) until stopWaiting(), then drops what does not
/// fit, ending the pipe rather than leave half a line.
class MessagePipe {
 public:
  /// Throws std::system_error when the pipe cannot be made.
  MessagePipe();
  ~MessagePipe();
  MessagePipe(const MessagePipe&) = delete;
  MessagePipe& operator=(const MessagePipe&) = delete;

  int readFd() const { return read_fd_; }
  /// Writes `line` and a newline, waiting for room; nothing once closed.
  void writeLine(std::string line);
  /// From now on a full pipe drops the line instead of waiting.
  void stopWaiting() { stop_waiting_ = true; }
  /// Ends the pipe: the reader sees its end once it read what is there.
  void closeWriteEnd();
  /// From now on lines go to `on_line` on the writer's thread instead of
  /// the pipe (which then only ends), waiting while `full()` says the
  /// receiver's queue is full (unless stopWaiting()). Set before any line.
  void deliverTo(std::function<void(std::string_view)> on_line, std::function<bool()> full);
  /// True while the receiver deliverTo() named says it is full (a line
  /// written now would wait for it).
  bool receiverFull() const { return full_ && full_(); }

 private:
  int read_fd_ = -1;
  std::mutex mutex_;  // one line at a time; guards write_fd_
  int write_fd_ = -1;
  std::atomic<bool> stop_waiting_{false};
  std::function<void(std::string_view)> on_line_;
  std::function<bool()> full_;
};

}  // namespace toolguard::mcp
