#pragma once
// Internal: where the approval store keeps each scope's file, and which scope
// ids a scope accepts.

#include <cstdint>
#include <string>
#include <string_view>

#include "toolguard/approval.hpp"

namespace toolguard::detail {

/// The 64-bit FNV-1a hash of `bytes`.
uint64_t fnv1a64(std::string_view bytes);

/// The file name (without directory) for a scope id: a readable prefix of the
/// id (ASCII letters, digits, `-`, `_`, `.`; other bytes `_`; at most 40
/// characters) followed by `-` and the 16 hex digits of the id's FNV-1a hash,
/// then `.json`. Distinct ids give distinct names unless their hashes collide,
/// which the file's recorded scope id catches.
std::string scopeFileName(std::string_view scope_id);

/// The directory below HOME/approvals holding a scope's files ("projects",
/// "agents", "sessions"); empty for Global, whose file is global.json.
std::string_view scopeDirectoryName(ApprovalScope scope);

/// Why `scope_id` cannot be the id of `scope` (Global takes none, every other
/// scope needs one), or an empty string when it can.
std::string scopeIdProblem(ApprovalScope scope, std::string_view scope_id);

}  // namespace toolguard::detail
