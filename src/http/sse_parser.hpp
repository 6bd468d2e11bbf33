#pragma once
// An incremental parser of server-sent events (text/event-stream): bytes in,
// complete events out, whatever the chunk boundaries.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// One dispatched event.
struct SseEvent {
  std::string event;  ///< the "event:" field ("" when not sent)
  std::string data;   ///< the "data:" lines joined with "\n"
  /// An "error:" line's value: not in the SSE standard, but llama.cpp's
  /// server reports errors in a stream that way.
  std::string error;
  /// The stream's last event id when it was dispatched (the latest "id:"
  /// field so far, this event's included): what a client resuming after it
  /// sends as Last-Event-ID.
  std::string id;
};

/// Splits a byte stream into events. Lines end with "\n", "\r\n" or "\r";
/// ":" lines are comments; "id:" sets the last event id once its event is
/// complete (at the blank line; one holding a NUL is ignored, as the
/// standard says) and "retry:" the reconnection time. An event is
/// dispatched at its blank line when it has data or an error.
class SseParser {
 public:
  /// `max_event_bytes` bounds one event (its pending line included).
  explicit SseParser(size_t max_event_bytes = 8u << 20) : max_event_bytes_(max_event_bytes) {}

  /// Parses `bytes`, appending the events they complete to `out`. False
  /// (and error() set) once an event exceeds the cap; later calls fail too.
  bool feed(std::string_view bytes, std::vector<SseEvent>& out);

  /// Ends the stream: dispatches an event the server left without its
  /// blank line (an unterminated last line included). False after an error.
  bool finish(std::vector<SseEvent>& out);

  /// Why feed or finish failed ("" when they did not).
  const std::string& error() const { return error_; }
  /// The id of the last complete event ("" for none), whether or not it
  /// was dispatched (a stream may send an id with empty data).
  const std::string& lastEventId() const { return last_id_; }
  /// The latest "retry:" in milliseconds, or -1 when none was sent.
  long retryMs() const { return retry_ms_; }

 private:
  // Handles one complete line (without its terminator).
  void processLine(std::string_view line, std::vector<SseEvent>& out);
  // Dispatches the pending event, if any, and starts a new one.
  void dispatch(std::vector<SseEvent>& out);
  // Bytes held for the current event.
  size_t pendingBytes() const;

  size_t max_event_bytes_;
  std::string line_;  // the current line, not yet terminated
  SseEvent event_;    // the event being built
  bool has_data_ = false;
  bool skip_lf_ = false;  // the last byte was a "\r": a "\n" right after it ends nothing
  std::string error_;
  std::string id_buffer_;  // the latest "id:" of the event being read
  std::string last_id_;
  long retry_ms_ = -1;
};

}  // namespace toolguard::detail
