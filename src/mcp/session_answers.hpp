#pragma once
// Internal: answers the MCP session gives without asking a person.

#include <string>
#include <utility>

#include "toolguard/approval.hpp"

namespace toolguard::mcp {

/// A deny nobody gave: nobody could be asked, or the answer was unreadable.
inline ApprovalAnswer deniedWithoutPerson(std::string reason) {
  ApprovalAnswer answer;
  answer.outcome = ApprovalOutcome::Deny;
  answer.reason = std::move(reason);
  answer.by_person = false;
  return answer;
}

}  // namespace toolguard::mcp
