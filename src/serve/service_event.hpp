#pragma once
// Internal: the audit record of something done through `toolguard serve`
// that is not a decision (a sign-in, an answer, a revocation).

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "audit/audit_detail.hpp"

namespace toolguard::serve {

/// {"time", "id", "tool": "", "event", "by", "verdict": ""}: the caller adds
/// what the event is about (and sets tool and verdict where it has them).
inline nlohmann::json serviceEvent(const std::string& event, const std::string& by) {
  return {{"time", detail::formatAuditTime(std::chrono::system_clock::now())},
          {"id", detail::randomAuditId()},
          {"tool", ""},
          {"event", event},
          {"by", by},
          {"verdict", ""}};
}

}  // namespace toolguard::serve
