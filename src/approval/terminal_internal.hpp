#pragma once
// Internals of the terminal approval prompt: UTF-8 decoding, the characters
// shown as escapes, terminal input with a deadline, keys, and the terminal
// mode.

#include <termios.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/unicode_text.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::detail {

using PromptClock = std::chrono::steady_clock;
/// When the prompt gives up; nullopt: never.
using PromptDeadline = std::optional<PromptClock::time_point>;

/// "no answer within 30 s" (whole seconds) or "no answer within 200 ms".
std::string timeoutReason(std::chrono::milliseconds timeout);

/// strerror(), thread-safe.
std::string errorText(int error);

/// A deny answer with `reason`.
ApprovalAnswer deniedAnswer(std::string reason = {});

/// Writes all of `text`, retrying on EINTR and short writes. Returns 0 or an errno.
int writeAll(int fd, std::string_view text);

/// While alive, a terminal is in non-canonical mode without echo and
/// without signal keys (VMIN 1, VTIME 0; Ctrl-C arrives as a byte); pending
/// input typed before the prompt is discarded. The saved mode is restored
/// when it ends. Does nothing when `fd` is not a terminal.
class TerminalMode {
 public:
  explicit TerminalMode(int fd);
  ~TerminalMode();
  TerminalMode(const TerminalMode&) = delete;
  TerminalMode& operator=(const TerminalMode&) = delete;

  /// True when the mode was changed (and will be restored).
  bool active() const { return active_; }

 private:
  int fd_;
  bool active_ = false;
  termios saved_{};
};

/// One thing read from the terminal.
struct Key {
  enum class Kind {
    Char,       ///< one printable ASCII character, space, \t, \r or \n (in `ch`)
    Text,       ///< one valid multi-byte UTF-8 character (in `text`)
    Escape,     ///< a lone Esc (no `[` or `O` within 30 ms after it)
    Sequence,   ///< an escape sequence (arrow key, function key, bracketed paste): ignored
    Interrupt,  ///< Ctrl-C, Ctrl-D, Ctrl-Z or Ctrl-\ (the terminal sends them as bytes)
    Erase,      ///< backspace (0x7f or 0x08)
    Other,      ///< any other byte: another control character, invalid UTF-8
    Timeout,    ///< the deadline passed
    Closed,     ///< end of file, or the terminal hung up (EIO)
    Error       ///< a read error (in `error`)
  };
  Kind kind = Kind::Other;
  char ch = 0;
  std::string text;
  int error = 0;
};

/// Bytes from a terminal (or a pipe) with a deadline, and the keys they make.
class KeyReader {
 public:
  KeyReader(int fd, PromptDeadline deadline) : fd_(fd), deadline_(deadline) {}

  /// The next key; waits until the deadline.
  Key next();

  /// Drops spaces, tabs, \r and \n that have already arrived (after a key
  /// that answers a question, so "3 \r" does not also answer the next one).
  void dropPendingBlanks();

 private:
  enum class Got { Byte, Timeout, Closed, Error };
  /// The next byte, waiting until `until` (or the deadline, if earlier).
  Got byte(unsigned char& out, PromptDeadline until);
  /// Reads what has arrived, waiting until `until`; false when nothing came.
  Got fill(PromptDeadline until);
  Key escape();

  int fd_;
  PromptDeadline deadline_;
  std::string buffer_;
  size_t pos_ = 0;
  int error_ = 0;
};

/// promptOnTerminal with an explicit deadline (the handler counts the time
/// spent waiting for another prompt against request.timeout).
ApprovalAnswer promptUntil(int in_fd, int out_fd, const ApprovalRequest& request,
                           const PromptLayout& layout, PromptDeadline deadline);

}  // namespace toolguard::detail
