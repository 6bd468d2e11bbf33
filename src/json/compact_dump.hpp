#pragma once
// Internal: nlohmann::json's compact dump() written without its stream
// machinery (an output adapter on the heap, a locale query per call): the
// approval key of every decision is one.

#include <nlohmann/json.hpp>
#include <string>

namespace toolguard::detail {

/// What becomes of a string that is not valid UTF-8: as dump()'s error handlers.
enum class BadUtf8 {
  Throw,    ///< nlohmann's type_error (dump()'s default)
  Replace,  ///< each bad byte becomes U+FFFD (error_handler_t::replace)
};

/// Appends exactly what `value.dump(-1, ' ', false, handler)` gives (no
/// indentation, UTF-8 kept as it is).
void appendCompactDump(std::string& out, const nlohmann::json& value,
                       BadUtf8 bad_utf8 = BadUtf8::Throw);

/// Appends one string as appendCompactDump writes it (quoted, escaped).
void appendJsonString(std::string& out, const std::string& text, BadUtf8 bad_utf8 = BadUtf8::Throw);

/// appendCompactDump into a new string.
std::string compactDump(const nlohmann::json& value, BadUtf8 bad_utf8 = BadUtf8::Throw);

}  // namespace toolguard::detail
