#pragma once
// Internal: an answer given through `toolguard serve` (POST
// /v1/asks/ID/answer, as the service records it) as an ApprovalAnswer:
// what the service's own Guard and remoteApprovalHandler both read.

#include <nlohmann/json.hpp>

#include "toolguard/approval.hpp"

namespace toolguard::detail {

/// {"answer": "allow_once" | "always" | "deny", "option", "scope", "note",
/// "by"} as an answer by a person. Anything else is a deny.
ApprovalAnswer serviceAnswer(const nlohmann::json& answer);

/// Nobody answered (or the service could not be asked): a deny that says why.
ApprovalAnswer noServiceAnswer(const std::string& why);

}  // namespace toolguard::detail
