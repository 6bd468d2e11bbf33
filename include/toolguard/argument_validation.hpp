#pragma once
// validateArgs hooks: C++ checks that sanitize a call's arguments or reject
// the call, run after the rules and before anyone is asked to approve it.

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "toolguard/tool_call.hpp"

namespace toolguard {

/// What an argument validator says about one call.
struct ArgumentCheck {
  bool rejected = false;
  std::string reason;  ///< why the call is rejected (shown to the person and the model)
  /// Replacement arguments (e.g. a path made canonical, a field trimmed);
  /// nullopt keeps the arguments as they are.
  std::optional<nlohmann::json> sanitized;

  /// The arguments are fine as they are.
  static ArgumentCheck accept() { return {}; }
  /// Use these arguments instead.
  static ArgumentCheck sanitize(nlohmann::json args) { return {false, "", std::move(args)}; }
  /// Refuse the call.
  static ArgumentCheck reject(std::string reason) { return {true, std::move(reason), {}}; }
};

/// A validateArgs hook. It sees the call as sanitized by the hooks before it.
/// An exception it throws rejects the call (fail closed).
using ArgumentValidator = std::function<ArgumentCheck(const ToolCall& call)>;

/// A hook and the tools it is for.
struct ArgumentValidatorEntry {
  std::string tool;  ///< tool name, or a wildcard such as "mcp__fs__*" or "*"
  std::string name;  ///< shown in reasons ("validator NAME rejected ...")
  ArgumentValidator validate;
};

}  // namespace toolguard
