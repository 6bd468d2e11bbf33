// UTF-8 decoding and the characters that must never reach a terminal or a
// shell argument unseen.
#include "core/unicode_text.hpp"

namespace toolguard::detail {

void appendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

size_t decodeUtf8(std::string_view text, size_t i, unsigned& code_point) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned lead = byte(i);
  size_t length = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code_point = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code_point = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code_point = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  constexpr unsigned kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[length] || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return 0;  // overlong, out of range or a surrogate
  }
  return length;
}

bool isInvisibleOrControl(unsigned cp) {
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return true;  // C0, DEL, C1
  if (cp < 0xAD) return false;
  return cp == 0xAD ||                        // soft hyphen
         cp == 0x034F ||                      // combining grapheme joiner
         cp == 0x061C ||                      // Arabic letter mark
         cp == 0x115F || cp == 0x1160 ||      // Hangul fillers
         cp == 0x17B4 || cp == 0x17B5 ||      // Khmer inherent vowels
         (cp >= 0x180B && cp <= 0x180F) ||    // Mongolian variation selectors, vowel separator
         (cp >= 0x200B && cp <= 0x200F) ||    // zero-width space, joiners, LRM, RLM
         (cp >= 0x2028 && cp <= 0x202E) ||    // line/paragraph separators, bidi embeddings
         (cp >= 0x2060 && cp <= 0x206F) ||    // word joiner, invisible operators, isolates
         cp == 0x3164 ||                      // Hangul filler
         (cp >= 0xFE00 && cp <= 0xFE0F) ||    // variation selectors
         cp == 0xFEFF ||                      // byte order mark, zero-width no-break space
         cp == 0xFFA0 ||                      // halfwidth Hangul filler
         (cp >= 0xFFF0 && cp <= 0xFFFB) ||    // interlinear annotations
         cp == 0xFFFE || cp == 0xFFFF ||      // noncharacters
         (cp >= 0x1BCA0 && cp <= 0x1BCA3) ||  // shorthand format controls
         (cp >= 0x1D173 && cp <= 0x1D17A) ||  // musical symbol format controls
         (cp >= 0xE0000 && cp <= 0xE007F) ||  // tag characters
         (cp >= 0xE0100 && cp <= 0xE01EF);    // variation selectors supplement
}

}  // namespace toolguard::detail
