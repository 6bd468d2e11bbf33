#pragma once
// JSON text that a tool call is read from (hook input, MCP messages, the
// arguments a model returns), parsed strictly. A key that appears twice in
// one object is refused: readers disagree on which value counts (toolguard's
// JSON library keeps the last, an agent runtime may run the first), so the
// guard could judge one command while another runs.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "toolguard/tool_call.hpp"

namespace toolguard {

/// Why parseStrictJson refused a text.
enum class StrictJsonProblem {
  None,          ///< accepted
  Syntax,        ///< not JSON (the message names line and column)
  TooDeep,       ///< more nested arrays and objects than allowed
  DuplicateKey,  ///< a key twice in one object
};

/// What parseStrictJson made of a text: the value, or why it was refused.
struct StrictJson {
  std::optional<nlohmann::json> value;  ///< set when the text was accepted
  StrictJsonProblem problem = StrictJsonProblem::None;
  /// Refused: a sentence naming the problem and where, e.g. `duplicate key
  /// "command" at /args/command (...)`.
  std::string error;
  /// DuplicateKey: the JSON pointer (RFC 6901) of the repeated key, e.g.
  /// "/args/command"; for a key of the top-level object, "/command".
  std::string pointer;
};

/// Parses `text` as one JSON value whose objects hold every key once, at
/// every depth, nested at most `max_depth` arrays and objects deep. One
/// pass, no recursion, no exceptions: every failure is in the result.
StrictJson parseStrictJson(std::string_view text, size_t max_depth = kMaxArgumentDepth + 4);

}  // namespace toolguard
