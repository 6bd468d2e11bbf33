#pragma once
// Internal: the tokens of the Starlark subset read by starlark_reader.hpp.

#include <deque>
#include <string>
#include <string_view>

#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// One token. Newlines count only outside brackets and after a token on the
/// same line (blank and comment lines make none), as in Starlark.
struct StarlarkToken {
  enum class Kind {
    Name,
    String,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Equals,
    Plus,
    Semicolon,
    Newline,
    End
  };
  Kind kind = Kind::End;
  std::string text;  ///< the name, or the decoded string
  int line = 0;      ///< 1-based
  int column = 0;    ///< 1-based, in bytes
  bool first_on_line = false;
};

/// Splits a file into tokens. Rejects invalid UTF-8, NUL bytes, numbers,
/// unknown characters, bad escapes and unterminated strings with a
/// PolicyError naming file, line and column.
class StarlarkLexer {
 public:
  StarlarkLexer(std::string_view text, std::string file);

  /// The token `ahead` positions after the next one (0: the next), not consumed.
  const StarlarkToken& peek(size_t ahead = 0);

  /// Consumes and returns the next token.
  StarlarkToken next();

  /// Where a token starts.
  SourceLocation at(const StarlarkToken& token) const;

  /// Throws a PolicyError at the given position.
  [[noreturn]] void fail(int line, int column, const std::string& message) const;

 private:
  StarlarkToken scan();
  void scanString(StarlarkToken& token, bool raw);
  void scanEscape(std::string& out);
  unsigned hexDigits(size_t count, int line, int column);
  void newline();
  int column() const { return static_cast<int>(pos_ - line_start_) + 1; }
  bool more(size_t ahead = 0) const { return pos_ + ahead < text_.size(); }
  char at(size_t ahead = 0) const { return more(ahead) ? text_[pos_ + ahead] : '\0'; }

  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  int depth_ = 0;                ///< open brackets: newlines inside do not count
  bool line_has_token_ = false;  ///< a token was read on the current line
  std::deque<StarlarkToken> ahead_;
};

}  // namespace toolguard::detail
