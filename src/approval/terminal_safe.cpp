// terminalSafe: text that cannot move the cursor, change colours or hide
// characters when printed on a terminal.
#include <cstdio>

#include "approval/terminal_internal.hpp"
#include "core/unicode_text.hpp"

namespace toolguard {

std::string terminalSafe(std::string_view text) {
  std::string safe;
  safe.reserve(text.size());
  char code[16];
  for (size_t i = 0; i < text.size();) {
    unsigned cp = 0;
    const size_t length = detail::decodeUtf8(text, i, cp);
    if (length == 0) {  // not UTF-8: the byte
      std::snprintf(code, sizeof code, "\\x%02x", static_cast<unsigned char>(text[i]));
      safe += code;
      ++i;
      continue;
    }
    if (cp == '\\') {
      safe += "\\\\";  // doubled, so every backslash in the result starts an escape
    } else if (cp == '\n') {
      safe += "\\n";
    } else if (cp == '\r') {
      safe += "\\r";
    } else if (cp == '\t') {
      safe += "\\t";
    } else if (!detail::isInvisibleOrControl(cp)) {
      safe.append(text.substr(i, length));
    } else {
      if (cp < 0x80) {
        std::snprintf(code, sizeof code, "\\x%02x", cp);
      } else if (cp <= 0xFFFF) {
        std::snprintf(code, sizeof code, "\\u%04x", cp);
      } else {
        std::snprintf(code, sizeof code, "\\U%08x", cp);
      }
      safe += code;
    }
    i += length;
  }
  return safe;
}

}  // namespace toolguard
