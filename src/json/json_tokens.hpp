// Reading JSON text token by token without parsing it: where a string or a
// value ends. For text that is read in place (a value replaced, a key's
// value redacted) rather than read into a document and written again.
#pragma once

#include <cstddef>
#include <string_view>

namespace toolguard::detail {

/// JSON's whitespace: space, tab, line feed, carriage return.
inline bool isJsonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// The end of the string token starting at text[begin] == '"' (one past its
/// closing quote), or the end of the text when it is not closed.
size_t jsonStringEnd(std::string_view text, size_t begin);

/// The end of the value starting at text[begin]: a string, a balanced
/// object or array (strings inside skipped), or a bare word (number, true,
/// false, null) up to a delimiter. Text that ends early ends the value.
size_t jsonValueEnd(std::string_view text, size_t begin);

}  // namespace toolguard::detail
