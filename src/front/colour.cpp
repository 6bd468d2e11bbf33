// Verdicts in colour on a terminal.
#include "front/colour.hpp"

#include <unistd.h>

#include <cstdlib>

namespace toolguard::front {

bool colourWanted(std::string_view mode, int fd) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return ::isatty(fd) != 0;
}

std::string paintVerdict(std::string_view verdict, const std::string& text, bool on) {
  if (!on) return text;
  const char* code = verdict == "allow"                        ? "32"
                     : verdict == "ask"                        ? "33"
                     : verdict == "deny" || verdict == "abort" ? "31"
                                                               : nullptr;
  if (code == nullptr) return text;
  return "\033[" + std::string(code) + "m" + text + "\033[0m";
}

}  // namespace toolguard::front
