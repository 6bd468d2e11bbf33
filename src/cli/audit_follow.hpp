#pragma once
// `audit tail --follow`: the records appended to the log after the ones
// already printed, as they come, until the process is stopped.

#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "toolguard/expected.hpp"

namespace toolguard::cli {

/// Watches `path` from byte `offset` on and calls `print` with each record
/// appended to it (a line that is not JSON as {"unreadable", "file", "line"},
/// as readAuditLog gives it), skipping records whose "id" is in `seen`. When
/// the log is rotated (a new file, or a shorter one) it starts again at the
/// beginning of the new file. Polls a few times a second; returns only when
/// the file cannot be read, failing, saying why.
Expected<void> followAuditLog(const std::string& path, std::uintmax_t offset,
                              const std::set<std::string>& seen,
                              const std::function<void(const nlohmann::json&)>& print);

}  // namespace toolguard::cli
