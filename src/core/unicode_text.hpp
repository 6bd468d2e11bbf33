#pragma once
// UTF-8 decoding and the characters that must never reach a terminal or a
// shell argument unseen.

#include <cstddef>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// Decodes one UTF-8 sequence at text[i]; returns its length, or 0 when it
/// is invalid (truncated, overlong, out of range, or a surrogate).
size_t decodeUtf8(std::string_view text, size_t i, unsigned& code_point);

/// Appends a code point (at most 0x10FFFF) to `out` as UTF-8.
void appendUtf8(std::string& out, unsigned code_point);

/// True for control characters (C0, DEL, C1) and characters that are
/// invisible or reorder text: zero-width, bidirectional controls, joiners,
/// variation selectors, tag characters, fillers.
bool isInvisibleOrControl(unsigned code_point);

/// `c` with A-Z made a-z; every other byte as it is.
inline char asciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// `text` with A-Z made a-z (bytes outside ASCII kept as they are).
inline std::string asciiLowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = asciiLower(c);
  return out;
}

}  // namespace toolguard::detail
