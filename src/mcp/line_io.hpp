#pragma once
// Internal: newline-delimited messages on file descriptors. Splitting the
// bytes read into lines (with a length limit), and a writer thread per
// destination so a peer that does not read never stalls the proxy.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace toolguard::mcp {

/// Cuts a byte stream into lines.
class LineSplitter {
 public:
  explicit LineSplitter(size_t max_line_bytes) : max_(max_line_bytes) {}
  /// Feeds bytes: calls on_line for each complete line (without its "\n" or
  /// a "\r" before it; empty lines are skipped), and on_too_long once for
  /// each line longer than the limit (which is dropped).
  void feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line,
            const std::function<void()>& on_too_long);
  /// At the end of the stream: the last line if it had no newline.
  void finish(const std::function<void(std::string_view)>& on_line);

 private:
  void take(std::string_view line, const std::function<void(std::string_view)>& on_line);
  std::string partial_;
  size_t max_;
  bool skipping_ = false;  // inside a line that was too long
};

/// How many bytes a LineWriter holds (queued or being written) before it is
/// full: the proxy then stops reading what would be queued there.
inline constexpr size_t kMaxQueuedBytes = size_t{8} << 20;

/// Writes lines to a file descriptor from a thread of its own, in the order
/// they were pushed. The queue is bounded by back pressure, not by dropping:
/// push() never blocks or drops, but full() says when the bytes held reached
/// the bound, and whoever feeds the writer stops reading its source until
/// `on_room` says the writer drained below the bound again.
class LineWriter {
 public:
  /// `owns_fd`: close the descriptor once everything is written (how a
  /// server's stdin is closed). `on_error` gets the first write error.
  /// `on_room` (may be empty) is called from the writer's thread each time
  /// the writer goes from full to not full (drained below the bound, or
  /// broken: nothing is held any more).
  LineWriter(int fd, bool owns_fd, std::function<void(const std::string&)> on_error,
             size_t max_queued_bytes = kMaxQueuedBytes, std::function<void()> on_room = {});
  ~LineWriter();
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;

  /// Queues one line (a newline is added). Ignored once finished or broken.
  void push(std::string line);
  /// True when the bytes held (queued, and the line being written) reached
  /// the bound: stop reading whatever feeds this writer.
  bool full() const;
  /// The bytes held: queued, and the line being written.
  size_t heldBytes() const;
  /// Writes what is queued, then closes the descriptor if owned; returns at once.
  void closeWhenDrained();
  /// Writes what is queued and stops the thread.
  void finish();

 private:
  void run();
  int fd_;
  bool owns_fd_;
  std::function<void(const std::string&)> on_error_;
  size_t max_held_;
  std::function<void()> on_room_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> queue_;
  size_t held_ = 0;  // bytes queued plus the line being written
  bool closing_ = false;
  bool broken_ = false;
  bool writing_ = false;                // the thread writes a line outside the lock
  bool writes_without_waiting_ = true;  // RWF_NOWAIT works on fd_
  std::thread thread_;
};

}  // namespace toolguard::mcp
