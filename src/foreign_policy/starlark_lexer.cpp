// Tokens of the Starlark subset: names, string literals, brackets and the few
// operators the reader understands.
#include "foreign_policy/starlark_lexer.hpp"

#include <cstdio>
#include <utility>

#include "core/unicode_text.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// Length of the valid UTF-8 sequence starting at `s[i]`, or 0 if it is not one.
size_t utf8Length(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  unsigned cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c >> 6) != 0x2) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  static constexpr unsigned kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// A letter or underscore: the start of a name.
bool isNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// A character a name may continue with.
bool isIdentifierChar(char c) {
  return isNameStart(c) || (c >= '0' && c <= '9');
}

// The value of a hex digit, or -1.
int escapeHexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A character for a message: printable ASCII as is, anything else as hex.
std::string shown(char c) {
  const auto b = static_cast<unsigned char>(c);
  if (b >= 0x21 && b < 0x7F) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02X", b);
  return buf;
}

}  // namespace

StarlarkLexer::StarlarkLexer(std::string_view text, std::string file)
    : text_(text), file_(std::move(file)) {
  // Check the whole text once: every later step may then assume UTF-8.
  size_t line_start = 0;
  int line = 1;
  for (size_t i = 0; i < text_.size();) {
    const size_t n = utf8Length(text_, i);
    const int col = static_cast<int>(i - line_start) + 1;
    if (n == 0) fail(line, col, "invalid UTF-8");
    if (text_[i] == '\0') fail(line, col, "NUL byte");
    if (text_[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    i += n;
  }
}

// Scans ahead as far as asked.
const StarlarkToken& StarlarkLexer::peek(size_t ahead) {
  while (ahead_.size() <= ahead) ahead_.push_back(scan());
  return ahead_[ahead];
}

// Takes the next token off the look-ahead.
StarlarkToken StarlarkLexer::next() {
  peek();
  StarlarkToken token = std::move(ahead_.front());
  ahead_.pop_front();
  return token;
}

// The file position of a token.
SourceLocation StarlarkLexer::at(const StarlarkToken& token) const {
  return SourceLocation{file_, token.line, token.column};
}

// Every lexing and reading error ends here.
void StarlarkLexer::fail(int line, int column, const std::string& message) const {
  throw PolicyError(SourceLocation{file_, line, column}, message);
}

// Moves the line count past a newline just consumed.
void StarlarkLexer::newline() {
  ++line_;
  line_start_ = pos_;
}

// Reads one token: skips blanks and comments, makes Newline and End tokens.
StarlarkToken StarlarkLexer::scan() {
  using Kind = StarlarkToken::Kind;
  for (;;) {
    const char c = at();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++pos_;
    } else if (c == '#') {
      while (more() && at() != '\n') ++pos_;
    } else if (c == '\\' && at(1) == '\n') {
      fail(line_, column(), "a backslash line continuation is not supported");
    } else if (c == '\n' || !more()) {
      StarlarkToken token;
      token.line = line_;
      token.column = column();
      const bool ends_line = depth_ == 0 && line_has_token_;
      line_has_token_ = false;
      if (more()) {
        ++pos_;
        newline();
      } else if (!ends_line) {
        token.kind = Kind::End;
        return token;
      }
      if (ends_line) {
        token.kind = Kind::Newline;
        return token;
      }
    } else {
      break;
    }
  }

  StarlarkToken token;
  token.line = line_;
  token.column = column();
  token.first_on_line = !line_has_token_;
  line_has_token_ = true;
  const char c = at();
  if (isNameStart(c)) {
    const size_t start = pos_;
    while (isIdentifierChar(at())) ++pos_;
    token.text = std::string(text_.substr(start, pos_ - start));
    if (at() == '"' || at() == '\'') {
      if (token.text == "r" || token.text == "R") {
        scanString(token, true);
        return token;
      }
      fail(token.line, token.column,
           "string prefix '" + token.text + "' is not supported (bytes and f-strings)");
    }
    token.kind = Kind::Name;
    return token;
  }
  if (c == '"' || c == '\'') {
    scanString(token, false);
    return token;
  }
  if (c >= '0' && c <= '9') fail(token.line, token.column, "numbers are not supported");
  ++pos_;
  switch (c) {
    case '(':
      ++depth_;
      token.kind = Kind::LParen;
      return token;
    case '[':
      ++depth_;
      token.kind = Kind::LBracket;
      return token;
    case ')':
      depth_ = depth_ > 0 ? depth_ - 1 : 0;
      token.kind = Kind::RParen;
      return token;
    case ']':
      depth_ = depth_ > 0 ? depth_ - 1 : 0;
      token.kind = Kind::RBracket;
      return token;
    case ',':
      token.kind = Kind::Comma;
      return token;
    case ';':
      token.kind = Kind::Semicolon;
      return token;
    case '=':
      if (at() == '=') fail(token.line, token.column, "'==' is not supported");
      token.kind = Kind::Equals;
      return token;
    case '+':
      if (at() == '=') fail(token.line, token.column, "'+=' is not supported");
      token.kind = Kind::Plus;
      return token;
    case '{':
      fail(token.line, token.column, "dicts are not supported");
    default:
      fail(token.line, token.column, "unexpected " + shown(c));
  }
}

// Reads a string literal (the opening quote is next) into token.text.
void StarlarkLexer::scanString(StarlarkToken& token, bool raw) {
  token.kind = StarlarkToken::Kind::String;
  const char quote = at();
  const bool triple = at(1) == quote && at(2) == quote;
  pos_ += triple ? 3 : 1;
  for (;;) {
    if (!more()) fail(token.line, token.column, "unterminated string");
    const char c = at();
    if (c == quote && (!triple || (at(1) == quote && at(2) == quote))) {
      pos_ += triple ? 3 : 1;
      return;
    }
    if (c == '\n' && !triple) {
      fail(token.line, token.column,
           "unterminated string (write \\n for a newline, or use a triple-quoted string)");
    }
    if (c == '\\' && !raw) {
      scanEscape(token.text);
      continue;
    }
    if (c == '\\' && more(1)) {  // raw: the backslash stays, and protects the next character
      token.text += c;
      ++pos_;
    }
    token.text += at();
    ++pos_;
    if (token.text.back() == '\n') newline();
  }
}

// Decodes one escape sequence (the backslash is next).
void StarlarkLexer::scanEscape(std::string& out) {
  const int line = line_;
  const int col = column();
  ++pos_;  // the backslash
  if (!more()) fail(line, col, "unterminated string");
  const char e = at();
  ++pos_;
  switch (e) {
    case '\n':
      newline();
      return;
    case '\\':
    case '\'':
    case '"':
      out += e;
      return;
    case 'a':
      out += '\a';
      return;
    case 'b':
      out += '\b';
      return;
    case 'f':
      out += '\f';
      return;
    case 'n':
      out += '\n';
      return;
    case 'r':
      out += '\r';
      return;
    case 't':
      out += '\t';
      return;
    case 'v':
      out += '\v';
      return;
    case 'x':
      appendUtf8(out, hexDigits(2, line, col));
      return;
    case 'u':
    case 'U': {
      const unsigned cp = hexDigits(e == 'u' ? 4 : 8, line, col);
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        fail(line, col, "invalid Unicode escape (not a character)");
      }
      appendUtf8(out, cp);
      return;
    }
    default:
      break;
  }
  if (e >= '0' && e <= '7') {
    unsigned value = static_cast<unsigned>(e - '0');
    for (int k = 0; k < 2 && at() >= '0' && at() <= '7'; ++k, ++pos_) {
      value = value * 8 + static_cast<unsigned>(at() - '0');
    }
    appendUtf8(out, value);
    return;
  }
  fail(line, col, "invalid escape sequence '\\" + std::string(1, e) + "'");
}

// Reads exactly `count` hex digits.
unsigned StarlarkLexer::hexDigits(size_t count, int line, int column) {
  unsigned value = 0;
  for (size_t k = 0; k < count; ++k, ++pos_) {
    const int d = escapeHexValue(at());
    if (!more() || d < 0)
      fail(line, column, "escape needs " + std::to_string(count) + " hex digits");
    value = value * 16 + static_cast<unsigned>(d);
  }
  return value;
}

}  // namespace toolguard::detail
