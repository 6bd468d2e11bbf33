#pragma once
// Internal: JavaScript (ECMA-262) regular expressions read into RE2 syntax,
// the one translator for every JavaScript pattern toolguard meets: JSON
// Schema's `pattern` and `patternProperties`, and Gemini CLI's policy
// patterns. RE2 runs in linear time, so a pattern can never hang the guard;
// what exists only in JavaScript's backtracking engine (look-around,
// backreferences, octal escapes) is refused with a sentence saying so.

#include <string>
#include <string_view>

namespace toolguard::detail {

/// Which JavaScript pattern syntax a text is written in.
enum class JsRegexFlavor {
  /// `new RegExp(text)` without flags (Gemini CLI): `\p` and other escaped
  /// letters without a meaning are the letter itself (Annex B).
  Plain,
  /// With the `u` flag (JSON Schema's dialect): `\p{L}` and `\P{L}` are
  /// Unicode properties and `\u{1F600}` a code point.
  Unicode,
};

/// A JavaScript pattern in RE2 syntax, and what it says about the strings it
/// matches (Gemini CLI's importer reads these facts).
struct JsRegex {
  std::string re2;             ///< the pattern in RE2 syntax (unanchored, as JavaScript's search)
  std::string error;           ///< why it cannot be translated; empty when re2 is good to compile
  bool anchored = false;       ///< uses `^` or `$` outside a character class
  bool quotes = false;         ///< names a `"`, `'`, a backslash or a control character literally
  bool all_literal = false;    ///< no regex syntax at all: a plain string
  bool empty_class = false;    ///< holds `[]`, a class that matches nothing
  std::string literal_prefix;  ///< text every match starts with ("" when unknown)
};

/// Translates one pattern. Meanings kept: `\s` and `\S` are ECMA-262's white
/// space and line terminators (`\s` inside a class too; `\S` inside a class
/// is RE2's), `\d`, `\w`, `\b` are ASCII as in JavaScript, `[^]` is any
/// character, `[]` nothing, `(?<name>` a named group, `\uXXXX`, `\xXX`,
/// `\cX` and `\0` the characters they name, `{` that starts no repetition a
/// brace. One difference is left: `.` matches `\r`, U+2028 and U+2029 too
/// (RE2's dot stops only at `\n`). Never throws.
JsRegex translateJsRegex(std::string_view pattern, JsRegexFlavor flavor);

}  // namespace toolguard::detail
