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

}  // namespace toolguard::detail
