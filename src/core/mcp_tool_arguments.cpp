// An MCP tool read from one call's arguments, the way the proxy reads a
// listed tool from its schema.
#include "mcp_tool_arguments.hpp"

#include <string>

#include "toolguard/mcp_tools.hpp"

namespace toolguard::detail {
namespace {

std::string jsonType(const nlohmann::json& value) {
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  if (value.is_object()) return "object";
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return "number";
  return "null";
}

}  // namespace

ToolInfo mcpToolFromArguments(const ToolCall& call, Verdict policy_default) {
  const std::string_view name = call.tool;
  const size_t server_end = name.find("__", 5);
  const std::string server(name.substr(
      5, server_end == std::string_view::npos ? std::string_view::npos : server_end - 5));
  const std::string tool(server_end == std::string_view::npos ? "" : name.substr(server_end + 2));
  nlohmann::json properties = nlohmann::json::object();
  if (call.args.is_object()) {
    for (const auto& [argument, value] : call.args.items()) {
      properties[argument] = {{"type", jsonType(value)}};
    }
  }
  const nlohmann::json listed = {{"name", tool.empty() ? std::string(name) : tool},
                                 {"inputSchema", {{"type", "object"}, {"properties", properties}}}};
  ToolInfo info = mcpToolInfo(server.empty() ? "unknown" : server, listed, policy_default);
  info.name = std::string(name);
  info.input_schema = nlohmann::json();  // only what this call gave, not the server's schema
  return info;
}

}  // namespace toolguard::detail
