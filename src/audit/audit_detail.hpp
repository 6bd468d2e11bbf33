#pragma once
// Internals of the audit log shared by its source files and tests.

#include <chrono>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "toolguard/decision.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard::detail {

/// What replaces a secret in an audit record.
inline constexpr std::string_view kRedacted = "[REDACTED]";

/// "2026-11-23T10:00:00.123Z": RFC 3339, UTC, milliseconds (rounded down).
std::string formatAuditTime(std::chrono::system_clock::time_point when);

/// 32 lowercase hex digits from the system's random source (128 bits).
std::string randomAuditId();

/// True when an object key names a credential (password, token, api_key,
/// Authorization, ...): its whole value is redacted. Case-insensitive; words
/// are split at `_`, `-`, `.`, spaces and camelCase humps, so `max_tokens`
/// and `author` are not credentials but `GITHUB_TOKEN` and `apiKey` are.
bool isCredentialKey(std::string_view key);

/// The text with every match of the built-in secret formats replaced by
/// "[REDACTED]" (the rest kept: `Bearer [REDACTED]`, `https://[REDACTED]@host`,
/// a private key block from BEGIN to END). If findSecretInText still finds a
/// secret afterwards, the whole text is "[REDACTED]".
std::string redactSecretsInText(std::string_view text);

}  // namespace toolguard::detail

namespace toolguard::detail {

/// The string member `key` of a record, or "" when it has none (or another type).
std::string_view recordString(const nlohmann::json& record, const char* key);

/// The last line of the open file `fd` (without its newline), read backwards
/// from `size` in blocks; `ends_with_newline` tells whether the file ends
/// with one (false: a write was cut short). Empty when the file is.
/// Throws AuditLogError (naming `path`) when it cannot be read.
std::string lastLogLine(int fd, std::uint64_t size, const std::string& path,
                        bool& ends_with_newline);

/// The first anchor of the log file at `path` ({"chain", "seq", ...}), or a
/// null value when it has none or cannot be read.
nlohmann::json firstAnchorOf(const std::string& path);

/// Why a decision was denied when its record could not be written: "the
/// audit log could not be written: WHAT" (WHAT from the exception, if any).
std::string auditFailureText(const std::exception_ptr& failed);

/// The text of auditRecord(call, decision, when) as the log writes it
/// (compactDump, bytes that are not UTF-8 replaced), byte for byte, written
/// without building the record's JSON object.
std::string auditRecordLine(const ToolCall& call, const Decision& decision,
                            std::chrono::system_clock::time_point when);

/// `record_text` (a JSON object's text) with ,"prev_hash":"PREV" added at its end.
std::string chainedRecordText(std::string_view record_text, std::string_view prev_hash);

}  // namespace toolguard::detail
