#pragma once
// The audit log: every decision as one JSON line, appended so that
// concurrent processes never interleave, each line chained to the one
// before (toolguard/audit_chain.hpp), rotated by size.

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "toolguard/decision.hpp"
#include "toolguard/result_scan.hpp"
#include "toolguard/tool_call.hpp"

namespace toolguard {

/// The audit log could not be opened, written or rotated; the message names
/// the file and the system error.
class AuditLogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where and how the log is written.
struct AuditLogOptions {
  std::string path;                            ///< the log file (parent directories are created)
  std::uint64_t max_bytes = 10 * 1024 * 1024;  ///< rotate when the file grows past this (0: never)
  /// Rotated files kept: PATH.1 (newest) .. PATH.N. nullopt (the default)
  /// keeps every one; a number deletes the older ones at rotation, says so
  /// on stderr and records it in the new file's anchor (retention).
  std::optional<unsigned> keep_rotated = std::nullopt;
};

/// The options the environment sets over `options`: TOOLGUARD_AUDIT_MAX_BYTES
/// (a whole number of bytes, 0: never rotate) and TOOLGUARD_AUDIT_KEEP (a
/// number of rotated files, or "all"). Throws AuditLogError when one is malformed.
AuditLogOptions auditLogOptionsFromEnvironment(AuditLogOptions options);

/// Arguments with secrets replaced: values of keys that name a credential
/// (password, token, api_key, secret, authorization, ...) and every match of
/// the built-in secret patterns inside strings become "[REDACTED]".
nlohmann::json redactSecrets(const nlohmann::json& args);

/// The audit record of one decision: time (RFC 3339 UTC with milliseconds),
/// id, tool, arguments (redacted), context, verdict, policy verdict, reason,
/// rule, source, basis, resolution and approval (who approved and how).
nlohmann::json auditRecord(const ToolCall& call, const Decision& decision,
                           std::chrono::system_clock::time_point when);

/// The audit record of what a tool returned, when it held something its
/// user should know (scanToolResult): time, id, tool, "event":
/// "tool-result", "via" (the route that judged it: "hook", "serve",
/// "mcp-proxy", "registry"; a hook's and the service's come from what the
/// agent reported), arguments (redacted), context, "findings" ({"secret":
/// what kind, "instructions": the passage}), whether the model got it
/// "redacted", and the "labels" the session got. It has no verdict: the
/// call was decided (and recorded) before it ran.
nlohmann::json resultAuditRecord(const ToolCall& call, const ResultFindings& findings,
                                 bool redacted, std::string_view via,
                                 std::chrono::system_clock::time_point when);

/// Input that could not be read as a call (it was denied without being judged).
struct MalformedCall {
  std::string input;       ///< the raw input, or its first bytes
  bool input_cut = false;  ///< `input` is only the beginning of what was sent
  size_t input_bytes = 0;  ///< the size of the whole input, when known (0: unknown)
  std::string error;       ///< why it could not be read
  std::string format;      ///< what it was read as: "toolguard", "claude", "gemini", ...
};

/// The input kept in a malformed call's record, at most.
inline constexpr size_t kMaxRecordedInputBytes = 4096;

/// The audit record of a malformed call: time, id, "tool": "", "malformed":
/// true, "error", "format", "input" (its first `max_input_bytes` bytes, with
/// the values of credential keys and the built-in secret formats redacted
/// as text, since it may not parse), "input_truncated": true when that is
/// not all of it, "input_bytes" when known, and the decision's verdict,
/// policy verdict, reason, source and basis. Errors and reasons are recorded
/// without the reader's quote of the input ("last read: '...'").
nlohmann::json malformedCallRecord(const MalformedCall& input, const Decision& decision,
                                   std::chrono::system_clock::time_point when,
                                   size_t max_input_bytes = kMaxRecordedInputBytes);

/// A record as the audit keeps it: its text (compact JSON, bytes that are
/// not UTF-8 replaced, without the chain's own fields) and the fields a
/// database files it under.
struct PreparedAuditRecord {
  std::string text;
  std::string time;     ///< the record's "time" ("" when it has none)
  std::string tool;     ///< its "tool"
  std::string verdict;  ///< its "verdict"
  std::string rule;     ///< its "rule"
};

/// `record` (a JSON object) prepared: its text without "prev_hash" and
/// "anchor", and its time, tool, verdict and rule when they are strings.
/// Throws AuditLogError when it is not an object.
PreparedAuditRecord prepareAuditRecord(const nlohmann::json& record);

/// prepareAuditRecord(auditRecord(call, decision, when)), written without
/// building the record's JSON.
PreparedAuditRecord prepareDecisionRecord(const ToolCall& call, const Decision& decision,
                                          std::chrono::system_clock::time_point when);

/// Where decisions are recorded: the audit log file, or the database of
/// `toolguard serve`. A write returns once the record is kept (written to
/// the file, committed to the database); it throws when it cannot be.
class AuditSink {
 public:
  virtual ~AuditSink() = default;

  /// Records one decision (auditRecord of it, now).
  void write(const ToolCall& call, const Decision& decision);

  /// Records one decision made at `when`: by default writeRecord(auditRecord
  /// of it); the file log writes the same text without building the JSON.
  virtual void writeDecision(const ToolCall& call, const Decision& decision,
                             std::chrono::system_clock::time_point when);

  /// Records a prepared record (one JSON object). Throws when it cannot.
  virtual void writeRecord(const nlohmann::json& record) = 0;

  /// Records a prepared record and then calls `done` once: with nullptr
  /// when it is kept, else with what failed. A sink that commits in groups
  /// (the database's) returns at once and calls `done` from its writer
  /// thread after the commit; the others write it here (writeRecord).
  virtual void writeRecordThen(const nlohmann::json& record,
                               std::function<void(std::exception_ptr failed)> done);

  /// writeRecordThen for a prepared record (by default its text is read
  /// back as JSON; the database's sink takes it as it is).
  virtual void writePreparedThen(PreparedAuditRecord record,
                                 std::function<void(std::exception_ptr failed)> done);
};

/// Appends audit records to a file. Each record is one write(2) of one whole
/// line to a file opened with O_APPEND, under PATH.lock (shared by
/// processes), with "prev_hash": the hash of the line before it, read from
/// the file's end. A new file starts with an anchor record. When the file
/// passes max_bytes it is rotated under the lock (PATH -> PATH.1 -> PATH.2
/// ...) and the new file's anchor links to the old file's last line.
/// Thread-safe.
class AuditLog : public AuditSink {
 public:
  explicit AuditLog(AuditLogOptions options);
  ~AuditLog();
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  /// Writes a prepared record (one JSON object). Throws AuditLogError.
  void writeRecord(const nlohmann::json& record) override;

  /// Writes auditRecord(call, decision, when)'s text. Throws AuditLogError.
  void writeDecision(const ToolCall& call, const Decision& decision,
                     std::chrono::system_clock::time_point when) override;

  const AuditLogOptions& options() const;

  /// Calls `kept` with each line this log writes from now on (records and
  /// anchors, chained, without the newline), in the file's order, once it is
  /// written: to ship the audit elsewhere as it is kept. It runs under the
  /// log's lock: it must not block, nor write to this log.
  void onKept(std::function<void(const std::string& line)> kept);

 private:
  /// Chains and appends one record's text (without its chain fields).
  void writeText(std::string text);

  struct State;
  std::unique_ptr<State> state_;
};

/// Which records `readAuditLog` returns. Empty fields do not filter.
struct AuditQuery {
  std::optional<std::chrono::system_clock::time_point> since;  ///< time >= since
  std::optional<std::chrono::system_clock::time_point> until;  ///< time < until
  std::string tool;     ///< tool name or wildcard pattern (`mcp__github__*`)
  std::string verdict;  ///< allow, ask, deny, abort
  std::string rule;     ///< rule id or wildcard pattern
  std::string agent;    ///< the agent id (context.agent) or wildcard pattern
  size_t last = 0;      ///< keep only the last N matches; 0 keeps all
};

/// True when one audit record passes the query's filters (time, tool,
/// verdict, rule, agent; `last` is not a filter of one record).
bool auditRecordMatches(const nlohmann::json& record, const AuditQuery& query);

/// Records of the log and its rotated files, oldest first, that match the
/// query. Lines that are not JSON objects are returned as
/// {"unreadable": LINE, "file": PATH, "line": N}, whatever the filters, so
/// nothing is hidden (they count towards `last`).
/// Throws AuditLogError when a file exists but cannot be read.
std::vector<nlohmann::json> readAuditLog(const std::string& path, const AuditQuery& query);

/// Parses an RFC 3339 time ("2026-11-23T10:00:00Z", with optional fraction
/// and offset) or a date ("2026-11-23", midnight UTC). nullopt if malformed.
std::optional<std::chrono::system_clock::time_point> parseAuditTime(std::string_view text);

/// A `--since` argument: a time or date as parseAuditTime reads it, or a
/// length of time back from `now`: a whole number with s, m, h, d or w
/// ("90s", "15m", "1h", "2d", "1w"). nullopt if malformed.
std::optional<std::chrono::system_clock::time_point> parseAuditSince(
    std::string_view text, std::chrono::system_clock::time_point now);

}  // namespace toolguard
