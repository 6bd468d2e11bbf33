#pragma once
// Internal: the JSON of approval store files, read strictly and written
// deterministically.

#include <string>
#include <string_view>
#include <vector>

#include "toolguard/approval.hpp"

namespace toolguard::detail {

/// One store file as read.
struct ScopeFileContents {
  /// Read from the plain format {"version": 1, "allowed_tools": [...]}, which
  /// records no scope: `scope` and `scope_id` below are then unset.
  bool plain = false;
  ApprovalScope scope = ApprovalScope::Global;  ///< as recorded (toolguard format)
  std::string scope_id;                         ///< as recorded (toolguard format)
  /// The entries; their scope and scope id are the recorded ones (the
  /// toolguard format) or unset (the plain format: Tool entries).
  std::vector<ApprovalEntry> entries;
  /// Plain format: keys besides "version" and "allowed_tools", which a
  /// rewrite in the toolguard format would lose.
  std::vector<std::string> plain_other_keys;
};

/// Parses a store file in either format. Throws ApprovalStoreError naming
/// `path` and the problem (with the byte position of a JSON syntax error).
/// Strict: an unknown version, format, key or binding, a wrong type, or a
/// missing field is an error. An empty file is an error too.
ScopeFileContents parseScopeFile(const std::string& path, std::string_view bytes);

/// parseScopeFile, also requiring the file to belong to `scope` and
/// `scope_id`; plain-format entries are given them.
ScopeFileContents parseScopeFileFor(const std::string& path, std::string_view bytes,
                                    ApprovalScope scope, std::string_view scope_id);

/// The names in a plain-format file; other keys are allowed. Throws
/// ApprovalStoreError naming `path` for anything that is not that format.
std::vector<std::string> parsePlainFile(const std::string& path, std::string_view bytes);

/// A scope file in the toolguard format: 2-space indent, entries in the given
/// order (keys tool, binding, value, rule when set, created, note), a
/// trailing newline. Throws ApprovalStoreError naming `path` when a
/// string is not valid UTF-8.
std::string formatScopeFile(const std::string& path, ApprovalScope scope, std::string_view scope_id,
                            const std::vector<ApprovalEntry>& entries);

/// The current UTC time, RFC 3339 with seconds: "2026-11-23T10:00:00Z".
std::string currentUtcTimestamp();

}  // namespace toolguard::detail
