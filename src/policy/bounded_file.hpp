#pragma once
// Internal: reading a configuration file (policy, guard skill, plugin)
// safely: regular files only, never blocking on a FIFO, bounded in size.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// The whole text of `file`. Throws PolicyError naming the file when it
/// cannot be opened or read, is not a regular file, or holds more than
/// `max_bytes` (also when it grows while being read). `what` names the
/// kind of file in messages ("policy file", "guard skill").
std::string readBoundedFile(const std::filesystem::path& file, size_t max_bytes,
                            std::string_view what);

/// The files of `dir` whose extension is one of `extensions` (".yaml"),
/// sorted by name; none when `dir` does not exist. Throws PolicyError when
/// the directory cannot be listed.
std::vector<std::filesystem::path> configFilesIn(const std::filesystem::path& dir,
                                                 const std::vector<std::string_view>& extensions);

}  // namespace toolguard::detail
