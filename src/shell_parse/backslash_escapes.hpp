#pragma once
// Internal: the backslash escapes bash's $'...', echo -e and printf share.

#include <optional>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// The character a one-letter escape stands for (`\a \b \e \E \f \n \r \t
/// \v \\`); nullopt for any other letter.
std::optional<char> controlEscape(char letter);

/// `\xHH`, `\uHHHH`, `\UHHHHHHHH`: `in[i]` is the letter; reads its hex
/// digits, appends the byte or the UTF-8 of the code point and leaves `i` on
/// the last digit. False (nothing appended) when no hex digit follows.
bool appendHexEscape(std::string_view in, size_t& i, std::string& out);

}  // namespace toolguard::detail
