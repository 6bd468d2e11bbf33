#pragma once
// JSON Schema patterns (ECMA-262 syntax with the `u` flag) compiled with RE2:
// linear time, so a pattern can never hang the guard. The translation is
// regex/js_regex.hpp's, shared with Gemini CLI's patterns; constructs RE2
// lacks (look-around, backreferences) are rejected at compile time.

#include <memory>
#include <string>
#include <string_view>

#include "toolguard/expected.hpp"

namespace re2 {
class RE2;
}

namespace toolguard::schema {

/// Compiles `pattern` (UTF-8, unanchored search); fails, saying why, when it
/// uses JavaScript-only syntax or RE2 rejects it.
Expected<std::shared_ptr<const re2::RE2>> compilePattern(std::string_view pattern);

/// Whether `re` finds a match anywhere in `text`.
bool searchPattern(const re2::RE2& re, std::string_view text);

}  // namespace toolguard::schema
