#pragma once
// Internal: a small, strict reader for the Starlark subset that other agents'
// rule files use (Codex `.rules`). It evaluates nothing: it reads top-level
// calls with their arguments, and resolves names bound to literal values.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// A value: a string or a list of values, with where it was written.
struct StarlarkValue {
  enum class Kind { String, List };
  Kind kind = Kind::String;
  std::string text;                  ///< the decoded string (Kind::String)
  std::vector<StarlarkValue> items;  ///< the elements (Kind::List)
  SourceLocation where;              ///< where the literal (or the name naming it) starts

  bool isString() const { return kind == Kind::String; }
  bool isList() const { return kind == Kind::List; }
};

/// One argument of a call; `name` is empty for a positional argument.
struct StarlarkArgument {
  std::string name;
  StarlarkValue value;
  SourceLocation where;  ///< where the argument starts (its name, else its value)
};

/// A top-level call statement such as `prefix_rule(pattern = ["git"])`.
struct StarlarkCall {
  std::string function;
  std::vector<StarlarkArgument> arguments;
  SourceLocation where;  ///< where the function name starts
};

/// Lists nested deeper than this are an error (the reader recurses on them).
inline constexpr size_t kStarlarkMaxNesting = 32;

/// All values the reader builds (names and `+` copy values) add up to at most
/// this many bytes: a few lines of `A = B + B` must not exhaust memory.
inline constexpr size_t kStarlarkMaxValueBytes = size_t{16} << 20;

/// Reads a file of top-level statements, one per line (or separated by `;`):
/// calls `f(name = value, ...)`, assignments `NAME = value` (each name bound
/// once, before it is used), string statements (docstrings) and comments.
/// A value is a string literal ('...', "...", triple-quoted, r-prefixed raw;
/// escapes \n \t \r \a \b \f \v \\ \' \" \ooo \xhh \uXXXX \UXXXXXXXX and
/// backslash-newline), a list `[a, b,]`, a bound name, or `a + b` of two
/// strings or two lists. Anything else (def, if, for, load, numbers, dicts,
/// tuples, f-strings, nested calls, ...) is an error. Throws PolicyError
/// naming file, line and column (1-based, in bytes) of the first problem.
std::vector<StarlarkCall> readStarlarkCalls(std::string_view text, const std::string& file);

}  // namespace toolguard::detail
