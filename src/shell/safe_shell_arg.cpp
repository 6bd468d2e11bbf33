// isSafeShellArg: words with no meaning to a shell.
#include "toolguard/safe_shell_arg.hpp"

#include <cstdio>

namespace toolguard {
namespace {

std::string at(size_t offset) {
  return " at byte " + std::to_string(offset);
}

std::string hexCode(unsigned value) {
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", value);
  return code;
}

// Decodes one UTF-8 sequence at text[i]; returns its length (0 when invalid).
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
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x061C ||
         (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

}  // namespace

std::optional<std::string> unsafeShellArgReason(std::string_view value,
                                                const SafeShellArgOptions& options) {
  if (value.empty()) {
    if (options.allow_empty) return std::nullopt;
    return "an empty word";
  }
  if (value.front() == '-' && !options.allow_leading_dash) {
    return "starts with '-', so the command would read it as an option";
  }
  for (size_t i = 0; i < value.size();) {
    unsigned cp = 0;
    const size_t length = decodeUtf8(value, i, cp);
    if (length == 0) return "a byte that is not UTF-8" + at(i);
    if (cp == 0) return "a NUL byte" + at(i);
    if (isInvisibleOrControl(cp)) return "the control character " + hexCode(cp) + at(i);
    if (cp < 0x80 && kShellMetacharacters.find(static_cast<char>(cp)) != std::string_view::npos) {
      const char c = static_cast<char>(cp);
      std::string reason = "the shell metacharacter ";
      if (c == ' ') {
        reason += "space";
      } else if (c == '\t') {
        reason += "tab";
      } else {
        reason.append(1, '\'').append(1, c).append(1, '\'');
      }
      return reason + at(i);
    }
    i += length;
  }
  return std::nullopt;
}

}  // namespace toolguard
