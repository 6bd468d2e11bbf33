#pragma once
// Internal: what a file-writing call will leave in a file, worked out before
// it runs: a Write's content, or the file as it is with an Edit's or
// MultiEdit's replacements applied, so that what the write adds can be told
// from what the file already held.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace toolguard::detail {

/// The texts a write call puts into one file.
struct WrittenContent {
  /// The file's content now: empty when it does not exist; nullopt when it
  /// exists and could not be read (not a regular file, too large, no access).
  std::optional<std::string> before;
  /// The whole text the file will hold, when that is known: a Write's
  /// content, or `before` with the call's edits applied.
  std::optional<std::string> after;
  /// Texts whose place in the file is not known: an edit of a file that
  /// could not be read, or whose text to replace is not in it.
  std::vector<std::string> fragments;
  /// A notebook tool's cell source (`new_source`): one cell, not the file.
  std::optional<std::string> cell;
};

/// The largest file read to apply an edit to; a larger one leaves only fragments.
inline constexpr size_t kMaxEditedFileBytes = 1 << 20;

/// What the call's arguments (`content`, `old_string`/`new_string`,
/// `edits`, `new_source`, and the MCP filesystem server's spellings) leave
/// in the file at `path` (absolute, symlinks followed). Empty when the
/// arguments hold no text for a file.
WrittenContent writtenContent(const nlohmann::json& args, const std::string& path);

/// True when the arguments hold any text a write puts into a file (cheap:
/// nothing is read).
bool writesText(const nlohmann::json& args);

}  // namespace toolguard::detail
