// The backslash escapes bash's $'...', echo -e and printf share.
#include "backslash_escapes.hpp"

#include <cstdint>

#include "core/unicode_text.hpp"

namespace toolguard::detail {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<char> controlEscape(char letter) {
  switch (letter) {
    case 'a':
      return '\a';
    case 'b':
      return '\b';
    case 'e':
    case 'E':
      return '\x1b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    case '\\':
      return '\\';
    default:
      return std::nullopt;
  }
}

bool appendHexEscape(std::string_view in, size_t& i, std::string& out) {
  const char letter = in[i];
  const size_t max = letter == 'x' ? 2 : letter == 'u' ? 4 : 8;
  uint32_t value = 0;
  size_t n = 0;
  while (n < max && i + 1 < in.size() && hexDigit(in[i + 1]) >= 0) {
    value = value * 16 + static_cast<uint32_t>(hexDigit(in[++i]));
    ++n;
  }
  if (n == 0) return false;
  if (letter == 'x') {
    out += static_cast<char>(value);
  } else {
    appendUtf8(out, value);
  }
  return true;
}

}  // namespace toolguard::detail
