#pragma once
// Internal: names the quote a command leaves open ("echo \"hi"), for the
// reason given when a command does not parse.

#include <optional>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// "unterminated double quote (\") opened at line 1, column 6" when `text`
/// ends inside a quote (single, double, $'...' or a backquote), else nullopt.
/// Used only for the message of a command that already fails to parse: the
/// verdict never depends on it. Here-documents are not followed (nullopt).
std::optional<std::string> unterminatedQuote(std::string_view text);

}  // namespace toolguard::detail
