#pragma once
// One audit record as a readable line: `audit tail` and `audit query`.

#include <nlohmann/json.hpp>
#include <string>

#include "toolguard/audit_chain.hpp"

namespace toolguard::front {

/// TIME VERDICT TOOL ["COMMAND" | "PATH" ...] [malformed] [rule=ID]
/// [policy=VERDICT] [by=WHO] reason=TEXT: the command a shell tool ran or
/// the paths a file tool touched, as JSON strings; every character that
/// could move the cursor made visible. `colour` paints the verdict. A line
/// the log could not read: FILE:LINE: unreadable: TEXT.
std::string readableAuditLine(const nlohmann::json& record, bool colour);

/// The command or paths of a record's call, as JSON strings separated by
/// spaces ("" when the tool carries neither).
std::string auditSubject(const nlohmann::json& record);

/// What `audit verify` prints: one line per break (WHERE: WHAT), the notes,
/// then "verified N records ... head HASH" or "the audit was changed: N
/// problems"; as JSON, {"ok", "records", "chain", "head", "issues", "notes"}.
/// Returns the exit status: 0 when every link holds, 1 when not.
int printChainReport(const AuditChainReport& report, bool as_json);

}  // namespace toolguard::front
