#pragma once
// JSON Pointers (RFC 6901) and the percent-encoding of URI fragments (RFC 3986).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::schema {

/// Appends "/" and `token` escaped ("~" as "~0", "/" as "~1") to `pointer`.
void appendToken(std::string& pointer, std::string_view token);

/// `pointer` followed by the escaped `token`.
std::string childPointer(std::string_view pointer, std::string_view token);

/// `pointer` followed by the array index `index`.
std::string childPointer(std::string_view pointer, std::size_t index);

/// The unescaped tokens of `pointer` (none for ""); nullopt when it is not a
/// pointer (no leading "/", or a "~" not followed by 0 or 1).
std::optional<std::vector<std::string>> parsePointer(std::string_view pointer);

/// The value `tokens` lead to inside `document`, or nullptr.
const nlohmann::json* resolvePointer(const nlohmann::json& document,
                                     const std::vector<std::string>& tokens);

/// Decodes %XX escapes; nullopt for a malformed escape.
std::optional<std::string> percentDecode(std::string_view text);

/// "#" followed by `pointer` with every byte a URI fragment may not hold
/// percent-encoded: "/a b" becomes "#/a%20b", "" becomes "#".
std::string fragmentOf(std::string_view pointer);

}  // namespace toolguard::schema
