#pragma once
// The audit's hash chain: every record carries "prev_hash", the SHA-256 (hex)
// of the exact bytes of the record before it (the line without its newline
// in a file, the row's text in PostgreSQL). A chain starts with an anchor
// record, {"anchor": {"chain": ID, "seq": 0, ...}, "prev_hash": 64 zeros},
// and every file after a rotation starts with an anchor whose prev_hash is
// the hash of the old file's last record and whose seq is one more. Checking
// the links finds a record edited, deleted, inserted or moved, and names it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace toolguard {

/// The field of every chained record that holds the previous record's hash.
inline constexpr std::string_view kAuditPrevHashField = "prev_hash";

/// The prev_hash of a chain's first anchor: 64 zeros.
inline constexpr std::string_view kAuditGenesisHash =
    "0000000000000000000000000000000000000000000000000000000000000000";

/// SHA-256 of `bytes`, 64 lowercase hex digits.
std::string auditHash(std::string_view bytes);

/// A break in the chain: where ("audit.jsonl.2:14", "row 42") and what.
struct AuditChainIssue {
  std::string where;
  std::string what;
};

/// What a walk along the chain found.
struct AuditChainReport {
  size_t records = 0;    ///< records read (anchors and unreadable lines included)
  size_t unchained = 0;  ///< records before the chain's first anchor (an older toolguard's)
  std::string chain;     ///< the chain's id (the first anchor's)
  std::string head;      ///< the hash of the last record: note it to check later (--head)
  std::vector<AuditChainIssue> issues;  ///< empty: every link holds
  std::vector<std::string> notes;       ///< what holds but is worth knowing (retention)
  bool ok() const { return issues.empty(); }
};

/// Walks a chain one record at a time, in the order the store keeps them.
class AuditChainVerifier {
 public:
  /// `expected_head`: a head noted earlier, which must still be in the chain
  /// (finds records removed from the end, which no link can show).
  explicit AuditChainVerifier(std::string expected_head = "");

  /// The next record: its exact bytes and where it is.
  void next(std::string_view bytes, const std::string& where);

  /// Ends the walk and returns what it found.
  AuditChainReport finish();

 private:
  void issue(const std::string& where, std::string what);

  AuditChainReport report_;
  std::string expected_head_;
  bool head_seen_ = false;
  bool started_ = false;
  std::string last_hash_;
  std::string last_where_;
  long long last_seq_ = -1;
  // Where a start was found whose predecessor is missing, and its seq.
  std::optional<std::pair<std::string, long long>> missing_start_;
  long long pruned_through_seq_ = -1;
  std::string pruned_where_;
  // The first 8 bytes of each record's hash -> its place, to tell a moved record.
  std::unordered_map<unsigned long long, std::string> seen_;
};

/// Walks the chain of the audit log at `path` and its rotated files
/// (oldest first), naming problems by file and line. Throws AuditLogError
/// when a file exists but cannot be read.
AuditChainReport verifyAuditLog(const std::string& path, const std::string& expected_head = "");

}  // namespace toolguard
