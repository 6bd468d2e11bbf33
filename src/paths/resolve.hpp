#pragma once
// Internal: symlink resolution that also reports where the existing part ends.

#include <optional>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// Where a path really leads, and the deepest directory of it that exists.
struct Resolution {
  std::string resolved;
  std::string existing_directory;
};

/// `path` made absolute (`~` expanded, joined to `base`) with `.` and `..`
/// left in place.
std::string joinPath(std::string_view path, std::string_view base, std::string_view home);

/// True when an absolute path has a `..` component.
bool hasDotDot(std::string_view path);

/// Follows the symlinks of an absolute path component by component (see
/// resolveSymlinks); nullopt after too many links.
std::optional<Resolution> resolveExisting(std::string_view absolute_path);

}  // namespace toolguard::detail
