// One word written as bash text: single-quoted, or bare when it is plain.
#include "core/shell_quote.hpp"

#include <algorithm>

namespace toolguard::detail {

std::string singleQuoted(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

bool isPlainShellWord(std::string_view word, EqualsSign equals) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [equals](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_@%+:,./-").find(c) != std::string_view::npos ||
           (c == '=' && equals == EqualsSign::Plain);
  });
}

std::string quotedIfNeeded(std::string_view word, EqualsSign equals) {
  return isPlainShellWord(word, equals) ? std::string(word) : singleQuoted(word);
}

}  // namespace toolguard::detail
