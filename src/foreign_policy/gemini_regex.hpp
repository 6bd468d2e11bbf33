#pragma once
// Internal: Gemini CLI's policy patterns are JavaScript regular expressions
// (`new RegExp(pattern)`, no flags). This reads one into RE2 syntax with the
// shared translator, refusing what RE2 cannot do in linear time, and
// describes it for the importer.

#include <string>

#include "regex/js_regex.hpp"
#include "toolguard/source_location.hpp"

namespace toolguard::detail::gemini {

/// A JavaScript pattern read into RE2 syntax (regex/js_regex.hpp), checked to
/// compile: `error` is empty and `empty_class` false.
using JsPattern = JsRegex;

/// Reads a JavaScript pattern. Throws PolicyError at `where` for syntax RE2
/// rejects or that exists only in JavaScript (lookaround, backreferences).
/// `what` names the field in messages ("argsPattern", "commandRegex").
JsPattern readJsPattern(const std::string& js, const SourceLocation& where, const char* what);

/// The pattern for a string value: what follows `"name":"` in an argsPattern,
/// or a commandRegex. Ending in an unescaped `"` (the value's closing quote in
/// the JSON text), it matches the whole value; otherwise a prefix of it.
struct ValuePattern {
  JsPattern body;       ///< the pattern without the closing quote
  bool closed = false;  ///< ended with the closing quote: a whole-value match
};

/// Reads a value pattern (see readJsPattern for errors).
ValuePattern readValuePattern(const std::string& js, const SourceLocation& where, const char* what);

/// True when Gemini CLI refuses to load the pattern as a possible ReDoS: longer
/// than 2048 characters, or a quantified group holding a quantifier
/// (`isSafeRegExp` in packages/core/src/policy/utils.ts).
bool geminiRefusesPattern(const std::string& js);

/// `text` as an RE2 pattern matching it literally.
std::string quoteRegex(const std::string& text);

}  // namespace toolguard::detail::gemini
