// Tool metadata as JSON, for approval requests (tool_info.hpp).
#include <nlohmann/json.hpp>

#include "toolguard/tool_info.hpp"

namespace toolguard {

nlohmann::json toJson(const ToolMetadata& metadata) {
  return {{"category", metadata.category},
          {"side_effect", toString(metadata.side_effect)},
          {"risk", toString(metadata.risk)},
          {"read_only", metadata.read_only}};
}

}  // namespace toolguard
