#pragma once
// Internal: an HTTP/1.x response's head (its status line and header
// fields) read from its text, and how its body is framed. One reading for
// the response being read from a connection (http_stream.cpp) and for an
// answer looked at before it is taken (wholeHttpAnswer).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// A response's status and header fields.
struct ResponseHead {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  ///< lowercase names, trimmed values
  /// The first field named `lowercase_name`, or "".
  std::string header(std::string_view lowercase_name) const;
  /// The media type its Content-Type names: lowercase, without parameters;
  /// "" when it names none.
  std::string mediaType() const;
};

/// Reads `text`: the status line and the header lines, each ended by CRLF
/// except the last (the head without its blank line). Fails, saying why,
/// for what is not HTTP/1.x or a malformed header line.
Expected<ResponseHead> parseResponseHead(std::string_view text);

/// How a response's body is framed (RFC 9112 section 6.3).
struct BodyFraming {
  enum class Kind {
    None,       ///< no body: 1xx, 204, 304, or the answer to a HEAD
    Length,     ///< `length` bytes (Content-Length)
    Chunked,    ///< chunked transfer coding
    UntilClose  ///< up to the connection's end
  } kind = Kind::UntilClose;
  uint64_t length = 0;
};

/// The framing `head` says, for the answer to a HEAD request or not. Fails
/// for two different Content-Length values, one that is not a number, a
/// transfer coding other than chunked, or both a Transfer-Encoding and a
/// Content-Length.
Expected<BodyFraming> bodyFramingOf(const ResponseHead& head, bool head_request);

/// `text` without the spaces and tabs around it.
std::string_view trimmedHeaderText(std::string_view text);

}  // namespace toolguard::detail
