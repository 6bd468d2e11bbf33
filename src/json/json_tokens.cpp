// Where JSON strings and values end in text (json/json_tokens.hpp).
#include "json/json_tokens.hpp"

namespace toolguard::detail {

size_t jsonStringEnd(std::string_view text, size_t begin) {
  for (size_t i = begin + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

size_t jsonValueEnd(std::string_view text, size_t begin) {
  if (begin >= text.size()) return begin;
  if (text[begin] == '"') return jsonStringEnd(text, begin);
  if (text[begin] == '{' || text[begin] == '[') {
    size_t depth = 0;
    for (size_t i = begin; i < text.size(); ++i) {
      if (text[i] == '"') {
        i = jsonStringEnd(text, i) - 1;
      } else if (text[i] == '{' || text[i] == '[') {
        ++depth;
      } else if ((text[i] == '}' || text[i] == ']') && --depth == 0) {
        return i + 1;
      }
    }
    return text.size();
  }
  size_t i = begin;
  while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' &&
         !isJsonSpace(text[i])) {
    ++i;
  }
  return i;
}

}  // namespace toolguard::detail
