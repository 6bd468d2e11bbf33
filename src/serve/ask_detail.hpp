#pragma once
// Internal: what the web queue shows of an ask beyond the call itself: the
// machine and address it came from, the parsed simple commands of a shell
// call with what each rule said about which of them, and where each path
// argument resolves. Kept with the ask (in its decision, as "detail").

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/decision.hpp"
#include "toolguard/engine.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::serve {

/// Where an ask came from, as the request told it.
struct AskOrigin {
  std::string machine;  ///< the client's host name (X-Toolguard-Machine), may be ""
  std::string peer;     ///< the connection's address
};

/// {"machine", "peer", "command", "commands": [{"index", "text", "findings":
/// [{"rule", "verdict", "reason"}]}], "findings": [...about the whole call],
/// "paths": [{"field", "raw", "resolved", "inside_workspace"} or {"field",
/// "raw", "refused"}]}: the findings are `decision`'s (none for a default
/// Decision). `viewed`: the call as the Guard viewed it, else it is viewed
/// here with `engine`'s policy; both null: only the origin.
nlohmann::json askDetail(const ToolCall& call, const Decision& decision, const Engine* engine,
                         const AskOrigin& origin, const CallView* viewed = nullptr);

}  // namespace toolguard::serve
