#pragma once
// Internal: the JSON library's exception text read as a sentence for a
// person and a model. "[json.exception.parse_error.101] parse error at line 1,
// column 38: syntax error while parsing object - unexpected end of input;
// expected '}'" becomes "invalid JSON at line 1, column 38: unexpected end of
// input; expected '}'".

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// What a JSON exception says, taken apart.
struct JsonErrorText {
  std::string message;  ///< what is wrong, without the library's codes and position
  size_t line = 0;      ///< 1-based line of a parse error (0: not known)
  size_t column = 0;    ///< 1-based column of a parse error (0: not known)
};

/// Takes apart the text of an exception of the JSON library (any other
/// exception's text is kept as it is).
JsonErrorText readJsonError(std::string_view what);

/// "invalid JSON at line L, column C: MESSAGE" (or "invalid JSON: MESSAGE"
/// when no position is known).
std::string jsonErrorSentence(const std::exception& error);

/// Where the JSON library's parser stops reading `text` with an error: the
/// count of bytes read, as parse_error::byte gives it (1-based; text.size()
/// when the text parses). For the errors whose exception holds no position:
/// a number too large for a double (`5e555`) is an out_of_range exception,
/// not a parse_error, and is thrown by the same json::parse.
size_t jsonErrorByte(std::string_view text);

}  // namespace toolguard::detail
