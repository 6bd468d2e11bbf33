#pragma once
// Internal: the checks of a call's arguments that are not rules: size and
// depth limits first, input schema and validateArgs hooks after the rules.

#include <optional>
#include <string>

#include "compiled_policy.hpp"
#include "toolguard/expected.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::detail {

/// Fails, saying why, when the arguments are refused before anything looks
/// at them (too large, too deep, not an object).
Expected<void> checkArgumentShape(const ToolCall& call, const ArgumentLimits& limits);

/// Why argument names are refused: two names that differ only in case, or a
/// name that is one the guard reads for `tool` (its command or path
/// arguments) in another case. Some tools read names without regard to case
/// (Go's encoding/json does), so such a call could run what the guard did not
/// judge. Fails saying which names.
Expected<void> checkArgumentNames(const ToolCall& call, const ToolInfo& tool);

/// What the schema and the hooks made of the arguments.
struct ArgumentOutcome {
  std::optional<std::string> rejection;     ///< set: deny with this reason
  std::optional<nlohmann::json> sanitized;  ///< set: the hooks changed the arguments
};

/// Checks the arguments against the tool's input schema, then runs the
/// validateArgs hooks for the tool in order (each sees the previous one's
/// arguments), then checks the schema again if the hooks changed them.
ArgumentOutcome checkArguments(const CompiledPolicy& compiled, const ToolCall& call);

}  // namespace toolguard::detail
