#pragma once
// An agent's JSON settings file as `toolguard install` edits it: read and
// parsed with its key order kept, backed up, and replaced atomically (through
// a symlink, keeping the file's mode), or removed.

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

namespace toolguard::cli {

/// A settings file that cannot be read, parsed or written. The message names
/// the file (and, for a syntax error, line and column).
class SettingsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One settings file as read: where it is, whether it exists, its bytes and
/// its parsed content (an empty object when it does not exist or is blank).
struct SettingsFile {
  std::string path;    ///< the path as addressed (may be a symlink)
  std::string target;  ///< the regular file that holds the content (symlinks resolved)
  bool exists = false;
  std::string bytes;
  nlohmann::ordered_json content = nlohmann::ordered_json::object();
  bool symlink = false;  ///< `path` is a symlink to `target`
  // What identifies the version that was read (a change means someone else wrote it).
  mode_t mode = 0;  ///< permission bits of the existing file
  uid_t owner = 0;
  gid_t group = 0;
  ino_t inode = 0;
  off_t size = 0;
  struct timespec modified {};
};

/// Reads and parses `path`. Throws SettingsFileError when the file cannot be
/// read, is not a regular file, is a dangling symlink, is not valid JSON
/// ("FILE:LINE:COLUMN: ..."), holds comments (rewriting would lose them) or
/// is not a JSON object.
SettingsFile readSettingsFile(const std::string& path);

/// `<path>.toolguard-backup`: the one backup toolguard keeps of a settings
/// file (the file as it was before toolguard's hook went in).
std::string backupPath(const SettingsFile& file);

/// Writes the file's bytes (as read) as its backup, with the file's mode,
/// replacing an earlier backup atomically. Returns the backup's path. Throws
/// SettingsFileError.
std::string saveBackup(const SettingsFile& file);

/// The backup's bytes, or nullopt when there is none. Throws
/// SettingsFileError when it cannot be read or is not a regular file.
std::optional<std::string> readBackup(const SettingsFile& file);

/// Removes the backup (none is fine). Throws SettingsFileError.
void removeBackup(const SettingsFile& file);

/// Writes `content` (2-space indented, newline at the end) in place of the
/// file: a temporary file next to the target, fsync, rename (link for a new
/// file), fsync of the directory. Keeps the mode of an existing file; a new file (and its missing
/// directories) gets the usual mode under the umask. Fails, writing nothing,
/// when the file changed since it was read. Throws SettingsFileError.
void writeSettingsFile(const SettingsFile& file, const nlohmann::ordered_json& content);

/// writeSettingsFile with the file's exact bytes (restoring a backup).
void writeSettingsBytes(const SettingsFile& file, const std::string& bytes);

/// Removes the file and returns true. A file reached through a symlink is not
/// removed: it is rewritten as `{}` (the link and its target stay) and false
/// is returned. Fails, changing nothing, when the file changed since it was
/// read. Throws SettingsFileError.
bool removeSettingsFile(const SettingsFile& file);

}  // namespace toolguard::cli
