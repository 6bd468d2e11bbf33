#pragma once
// Internal: asking the person through the MCP client (an elicitation/create
// request) and reading the client's answer.
#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/approval.hpp"

namespace toolguard::mcp {

/// The choices the elicitation offers, as the client shows them.
inline constexpr const char* kAllowOnce = "allow once";
inline constexpr const char* kAllowSession = "allow this exact call for the rest of the session";
inline constexpr const char* kDeny = "deny";

/// The params of an elicitation/create request (form mode) asking about
/// `request`: a message naming the server, the tool, why it needs approval
/// and its arguments (cut to a readable length), and a one-question form.
nlohmann::json elicitationParams(const ApprovalRequest& request, const std::string& server,
                                 const std::string& tool);

/// The person's answer from the client's response to that request (the
/// whole JSON-RPC response). Anything but an accepted, known choice is a
/// deny; a JSON-RPC error or a malformed result is a deny that no person
/// gave (by_person false), with the reason saying what came back.
ApprovalAnswer readElicitationAnswer(const nlohmann::json& response,
                                     const ApprovalRequest& request);

}  // namespace toolguard::mcp
