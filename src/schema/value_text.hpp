#pragma once
// Short, one-line renderings of JSON values and names for violation messages.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace toolguard::schema {

/// `text` as a JSON string literal, control characters escaped, cut after
/// `max_bytes` (on a UTF-8 boundary) with "..." inside the quotes.
std::string quoteText(std::string_view text, std::size_t max_bytes = 64);

/// A compact rendering of `value`: scalars as JSON, strings quoted and cut,
/// arrays and objects shortened ("[1, 2, ...]", "{\"a\": 1, ...}").
std::string renderValue(const nlohmann::json& value, std::size_t budget = 80);

/// The JSON type name of `value` as the type keyword says it: "integer",
/// "number", "string", "object", "array", "boolean", "null".
std::string typeName(const nlohmann::json& value);

/// `text` with every control character (and DEL) escaped as \n, \t, \r or
/// \u00XX, so it stays on one line.
std::string escapeControls(std::string_view text);

}  // namespace toolguard::schema
