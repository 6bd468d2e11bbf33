#pragma once
// Building tool calls in tests.

#include <string>

#include "toolguard/tool_call.hpp"

namespace toolguard::testing {

/// A call of `tool` with `args`, made in `cwd`.
inline ToolCall makeCall(std::string tool, nlohmann::json args = nlohmann::json::object(),
                         std::string cwd = "/work/app") {
  ToolCall c;
  c.tool = std::move(tool);
  c.args = std::move(args);
  c.context.cwd = std::move(cwd);
  return c;
}

}  // namespace toolguard::testing
