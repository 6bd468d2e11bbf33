// A call as toolguard's call JSON (what `toolguard check` reads).
#include "toolguard/tool_call.hpp"

namespace toolguard {

nlohmann::json toJson(const ToolCall& call) {
  nlohmann::json context{{"cwd", call.context.cwd}, {"mode", toString(call.context.mode)}};
  if (!call.context.workspace_roots.empty()) {
    context["roots"] = call.context.workspace_roots;  // the name check reads
  }
  const std::pair<const char*, const std::string*> ids[] = {
      {"agent", &call.context.agent},
      {"session", &call.context.session},
      {"model", &call.context.model},
      {"role", &call.context.role}};  // mcp_server is not a field of the call JSON
  for (const auto& [key, value] : ids) {
    if (!value->empty()) context[key] = *value;
  }
  return {{"tool", call.tool}, {"args", call.args}, {"context", context}};
}

}  // namespace toolguard
