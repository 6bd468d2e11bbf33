// isSafeShellArg: words with no meaning to a shell.
#include "toolguard/safe_shell_arg.hpp"

#include <cstdio>

#include "core/unicode_text.hpp"

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
    const size_t length = detail::decodeUtf8(value, i, cp);
    if (length == 0) return "a byte that is not UTF-8" + at(i);
    if (cp == 0) return "a NUL byte" + at(i);
    if (detail::isInvisibleOrControl(cp)) return "the control character " + hexCode(cp) + at(i);
    if (cp == '%' && !options.allow_percent) {
      return "'%', which Windows cmd expands (%NAME%)" + at(i);
    }
    if (cp == '=' && !options.allow_equals) {
      return "'=', which makes a word an assignment or an option's value" + at(i);
    }
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
