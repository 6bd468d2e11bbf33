#pragma once
// JSON Schema patterns (ECMA-262 syntax) compiled with RE2: linear time, so a
// pattern can never hang the guard. Constructs RE2 lacks (look-around,
// backreferences) are rejected at compile time.

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace toolguard::schema {

/// An ECMA-262 pattern rewritten for RE2: \uXXXX as \x{XXXX}, (?<name> as
/// (?P<name>, and \s / \S with ECMA-262's Unicode white space.
std::string translateEcmaPattern(std::string_view pattern);

/// Compiles `pattern` (UTF-8, unanchored search); nullptr with `error` set when
/// RE2 rejects it.
std::shared_ptr<const re2::RE2> compilePattern(std::string_view pattern, std::string& error);

/// Whether `re` finds a match anywhere in `text`.
bool searchPattern(const re2::RE2& re, std::string_view text);

}  // namespace toolguard::schema
