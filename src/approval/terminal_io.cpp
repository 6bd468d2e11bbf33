// Terminal input and output for the approval prompt: writes that finish,
// the terminal mode, and keys read with a deadline.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "approval/terminal_internal.hpp"

namespace toolguard::detail {
namespace {

// After Esc, how long the rest of a key's escape sequence may take to arrive.
constexpr std::chrono::milliseconds kEscapeWait{30};
// Between the bytes of an escape sequence or of one UTF-8 character.
constexpr std::chrono::milliseconds kSequenceWait{100};
// Longest escape sequence read before giving up on it.
constexpr size_t kMaxSequenceBytes = 32;

PromptDeadline earlier(PromptDeadline a, PromptDeadline b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

PromptDeadline in(std::chrono::milliseconds wait) {
  return PromptClock::now() + wait;
}

// poll()'s timeout until `until`, rounded up so it never spins; -1 for no limit.
int pollTimeout(PromptDeadline until) {
  if (!until) return -1;
  const auto left = *until - PromptClock::now();
  if (left <= PromptClock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

bool isWhiteSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// strerror_r returns the text (GNU) or 0 and fills the buffer (POSIX).
[[maybe_unused]] std::string strerrorResult(const char* text, const char*) {
  return text;
}
[[maybe_unused]] std::string strerrorResult(int result, const char* buffer) {
  return result == 0 ? buffer : "unknown error";
}

}  // namespace

std::string errorText(int error) {
  char buffer[256] = {};
  return strerrorResult(::strerror_r(error, buffer, sizeof buffer), buffer);
}

std::string timeoutReason(std::chrono::milliseconds timeout) {
  const auto ms = timeout.count();
  if (ms % 1000 == 0) return "no answer within " + std::to_string(ms / 1000) + " s";
  return "no answer within " + std::to_string(ms) + " ms";
}

ApprovalAnswer deniedAnswer(std::string reason) {
  ApprovalAnswer answer;
  answer.outcome = ApprovalOutcome::Deny;
  answer.reason = std::move(reason);
  answer.by_person = false;  // the prompt's own denials; a person's are marked by the caller
  return answer;
}

int writeAll(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n > 0) {
      text.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd ready{fd, POLLOUT, 0};
      ::poll(&ready, 1, -1);
      continue;
    }
    return n < 0 ? errno : EIO;
  }
  return 0;
}

TerminalMode::TerminalMode(int fd) : fd_(fd) {
  if (!::isatty(fd) || ::tcgetattr(fd, &saved_) != 0) return;
  termios raw = saved_;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  int result = 0;
  do {
    result = ::tcsetattr(fd, TCSANOW, &raw);
  } while (result != 0 && errno == EINTR);
  active_ = result == 0;
  // Keys typed before the question was shown must not answer it.
  if (active_) ::tcflush(fd, TCIFLUSH);
}

TerminalMode::~TerminalMode() {
  if (!active_) return;
  while (::tcsetattr(fd_, TCSANOW, &saved_) != 0 && errno == EINTR) {
  }
}

KeyReader::Got KeyReader::fill(PromptDeadline until) {
  until = earlier(until, deadline_);
  for (;;) {
    pollfd ready{fd_, POLLIN, 0};
    const int polled = ::poll(&ready, 1, pollTimeout(until));
    if (polled < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      return Got::Error;
    }
    if (polled == 0) return Got::Timeout;
    char chunk[256];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.erase(0, pos_);
      pos_ = 0;
      buffer_.append(chunk, static_cast<size_t>(n));
      return Got::Byte;
    }
    if (n == 0) return Got::Closed;
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    if (errno == EIO) return Got::Closed;  // a terminal whose other side hung up
    error_ = errno;
    return Got::Error;
  }
}

KeyReader::Got KeyReader::byte(unsigned char& out, PromptDeadline until) {
  if (pos_ >= buffer_.size()) {
    const Got got = fill(until);
    if (got != Got::Byte) return got;
  }
  out = static_cast<unsigned char>(buffer_[pos_++]);
  return Got::Byte;
}

void KeyReader::dropPendingBlanks() {
  for (;;) {
    if (pos_ >= buffer_.size() && fill(PromptClock::now()) != Got::Byte) return;
    if (!isWhiteSpace(buffer_[pos_])) return;
    ++pos_;
  }
}

Key KeyReader::escape() {
  Key key;
  key.kind = Key::Kind::Escape;
  unsigned char next = 0;
  if (byte(next, in(kEscapeWait)) != Got::Byte) return key;  // a lone Esc
  if (next != '[' && next != 'O') {
    --pos_;  // Esc, then another key: the Esc counts
    return key;
  }
  key.kind = Key::Kind::Sequence;
  if (next == 'O') {  // SS3: one more byte (F1-F4, arrows in application mode)
    byte(next, in(kSequenceWait));
    return key;
  }
  // CSI: parameter and intermediate bytes, then a final byte in 0x40-0x7e.
  std::string parameters;
  for (size_t count = 0; count < kMaxSequenceBytes; ++count) {
    if (byte(next, in(kSequenceWait)) != Got::Byte) return key;
    if (next >= 0x40 && next <= 0x7E) break;
    if (next < 0x20 || next > 0x3F) {
      --pos_;  // not part of a sequence
      return key;
    }
    parameters += static_cast<char>(next);
  }
  if (parameters == "200" && next == '~') {
    // Bracketed paste: pasted text is not an answer; skip it up to ESC [ 201 ~.
    constexpr std::string_view kEnd = "\x1b[201~";
    size_t matched = 0;
    while (matched < kEnd.size()) {
      const Got got = byte(next, deadline_);
      if (got == Got::Timeout) return Key{Key::Kind::Timeout, 0, {}, 0};
      if (got == Got::Closed) return Key{Key::Kind::Closed, 0, {}, 0};
      if (got == Got::Error) return Key{Key::Kind::Error, 0, {}, error_};
      if (next == static_cast<unsigned char>(kEnd[matched])) {
        ++matched;
      } else {
        matched = next == '\x1b' ? 1 : 0;
      }
    }
  }
  return key;
}

Key KeyReader::next() {
  Key key;
  unsigned char first = 0;
  switch (byte(first, deadline_)) {
    case Got::Byte:
      break;
    case Got::Timeout:
      key.kind = Key::Kind::Timeout;
      return key;
    case Got::Closed:
      key.kind = Key::Kind::Closed;
      return key;
    case Got::Error:
      key.kind = Key::Kind::Error;
      key.error = error_;
      return key;
  }
  if (first == 0x1B) return escape();
  if (first == 0x03 || first == 0x04 || first == 0x1A || first == 0x1C) {
    key.kind = Key::Kind::Interrupt;  // Ctrl-C, Ctrl-D, Ctrl-Z, Ctrl-Backslash
  } else if (first == 0x7F || first == 0x08) {
    key.kind = Key::Kind::Erase;
  } else if ((first >= 0x20 && first < 0x7F) || isWhiteSpace(static_cast<char>(first))) {
    key.kind = Key::Kind::Char;
    key.ch = static_cast<char>(first);
  } else if (first >= 0xC2 && first <= 0xF4) {
    // A UTF-8 character: its continuation bytes follow at once.
    const size_t length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2;
    std::string text(1, static_cast<char>(first));
    unsigned char more = 0;
    while (text.size() < length && byte(more, in(kSequenceWait)) == Got::Byte) {
      if ((more & 0xC0) != 0x80) {
        --pos_;
        break;
      }
      text += static_cast<char>(more);
    }
    unsigned code_point = 0;
    if (text.size() == length && decodeUtf8(text, 0, code_point) == length &&
        !isInvisibleOrControl(code_point)) {
      key.kind = Key::Kind::Text;
      key.text = std::move(text);
    }
  }
  return key;  // anything else: Other
}

}  // namespace toolguard::detail
