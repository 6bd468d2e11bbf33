#pragma once
// Internal: reading a configuration file (policy, guard skill, plugin)
// safely: regular files only, never blocking on a FIFO, bounded in size.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace toolguard::detail {

/// The whole text of `file`. Throws PolicyError naming the file when it
/// cannot be opened or read, is not a regular file, or holds more than
/// `max_bytes` (also when it grows while being read). `what` names the
/// kind of file in messages ("policy file", "guard skill").
std::string readBoundedFile(const std::filesystem::path& file, size_t max_bytes,
                            std::string_view what);

}  // namespace toolguard::detail
