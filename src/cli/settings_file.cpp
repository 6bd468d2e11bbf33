// Reading, backing up and atomically replacing an agent's settings file.
#include "cli/settings_file.hpp"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "core/file_descriptor.hpp"
#include "json/json_error.hpp"

namespace toolguard::cli {
namespace {

using nlohmann::ordered_json;

// Settings files are a few kilobytes; anything far larger is not one.
constexpr off_t kMaxSettingsBytes = 16 * 1024 * 1024;

// "PATH: WHAT: strerror(errno)", the message of a failed system call.
SettingsFileError systemError(const std::string& path, const std::string& what, int error) {
  return SettingsFileError(path + ": " + what + ": " + std::strerror(error));
}

// The directory part of a path ("." for a bare name).
std::string directoryOf(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? std::string(".") : parent;
}

// Reads a whole regular file through `fd`.
std::string readAll(int fd, const std::string& path) {
  std::string bytes;
  char buffer[8192];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw systemError(path, "cannot read", errno);
    if (got == 0) return bytes;
    bytes.append(buffer, static_cast<size_t>(got));
    if (bytes.size() > static_cast<size_t>(kMaxSettingsBytes)) {
      throw SettingsFileError(path + ": larger than " + std::to_string(kMaxSettingsBytes) +
                              " bytes, not a settings file");
    }
  }
}

// Writes all of `bytes` to `fd`.
void writeWholeFile(int fd, const std::string& bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t written = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw systemError(path, "cannot write", errno);
    done += static_cast<size_t>(written);
  }
}

// fsyncs a directory so that a rename or unlink in it survives a crash.
void syncDirectory(const std::string& dir) {
  detail::FileDescriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0 || ::fsync(fd.get()) != 0) throw systemError(dir, "cannot sync", errno);
}

// "FILE:LINE:COLUMN: message" for a JSON error at byte offset `byte` (nlohmann
// counts bytes read, so the error is at the `byte`-th byte).
std::string syntaxError(const std::string& path, const std::string& text,
                        const ordered_json::exception& e, size_t byte) {
  const size_t end = std::min<size_t>(byte, text.size());
  size_t line = 1, column = 0;
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  }
  // nlohmann's message repeats the position: keep only what follows it.
  std::string message = e.what();
  if (size_t at = message.find("column "); at != std::string::npos) {
    if (size_t colon = message.find(": ", at); colon != std::string::npos) {
      message = message.substr(colon + 2);
    }
  }
  if (message.starts_with("[json.exception.")) message = detail::readJsonError(message).message;
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) +
         ": invalid JSON: " + message;
}

// Parses settings text: blank is an empty object; comments and anything but
// an object are refused (see readSettingsFile).
ordered_json parseSettings(const std::string& path, const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return ordered_json::object();
  ordered_json content;
  try {
    content = ordered_json::parse(text);
  } catch (const ordered_json::parse_error& e) {
    // Valid once comments are skipped: JSON with comments (Gemini CLI reads them).
    const bool has_comments = !ordered_json::parse(text, nullptr, false, true).is_discarded();
    if (has_comments) {
      throw SettingsFileError(path +
                              ": holds comments, which rewriting the file would lose; "
                              "toolguard changed nothing (remove the comments, or add the "
                              "hook by hand)");
    }
    throw SettingsFileError(syntaxError(path, text, e, e.byte));
  } catch (const ordered_json::exception& e) {
    // A number too large for a double (5e555): an out_of_range error, which
    // holds no position; the parser says where it stops.
    throw SettingsFileError(syntaxError(path, text, e, detail::jsonErrorByte(text)));
  }
  if (!content.is_object()) {
    throw SettingsFileError(path + ": expected a JSON object at the top level, found " +
                            std::string(content.type_name()));
  }
  return content;
}

// Whether the target still is the version that was read (or still is absent).
bool unchanged(const SettingsFile& file) {
  struct stat st;
  if (::lstat(file.path.c_str(), &st) != 0) return !file.exists && errno == ENOENT;
  if (!file.exists) return false;
  if (S_ISLNK(st.st_mode) != file.symlink) return false;
  if (::stat(file.target.c_str(), &st) != 0) return false;
  return st.st_ino == file.inode && st.st_size == file.size &&
         st.st_mtim.tv_sec == file.modified.tv_sec && st.st_mtim.tv_nsec == file.modified.tv_nsec;
}

// Throws unless the file is still the version that was read.
void requireUnchanged(const SettingsFile& file) {
  if (!unchanged(file)) {
    throw SettingsFileError(file.path +
                            ": changed while toolguard was editing it; nothing was written "
                            "(run the command again)");
  }
}

// The permission bits a new file gets from open(..., 0666) under the umask.
mode_t newFileMode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

SettingsFile readSettingsFile(const std::string& path) {
  SettingsFile file;
  file.path = file.target = path;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return file;
    throw systemError(path, "cannot examine", errno);
  }
  if (S_ISLNK(st.st_mode)) {
    file.symlink = true;
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr) {
      if (errno == ENOENT) {
        throw SettingsFileError(path +
                                ": is a symlink to a file that does not exist; toolguard "
                                "changed nothing (create the target, or remove the link)");
      }
      throw systemError(path, "cannot resolve the symlink", errno);
    }
    file.target = resolved;
  }
  detail::FileDescriptor fd(::open(file.target.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) throw systemError(path, "cannot open", errno);
  if (::fstat(fd.get(), &st) != 0) throw systemError(path, "cannot examine", errno);
  if (!S_ISREG(st.st_mode)) throw SettingsFileError(path + ": not a regular file");
  file.exists = true;
  file.mode = st.st_mode & 07777;
  file.owner = st.st_uid;
  file.group = st.st_gid;
  file.inode = st.st_ino;
  file.size = st.st_size;
  file.modified = st.st_mtim;
  file.bytes = readAll(fd.get(), path);
  file.content = parseSettings(path, file.bytes);
  return file;
}

std::string backupPath(const SettingsFile& file) {
  return file.path + ".toolguard-backup";
}

std::string saveBackup(const SettingsFile& file) {
  const std::string name = backupPath(file);
  std::string temporary = name + ".tmp-XXXXXX";
  detail::FileDescriptor fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (fd.get() < 0) throw systemError(temporary, "cannot create the backup", errno);
  try {
    if (::fchmod(fd.get(), file.mode) != 0)
      throw systemError(temporary, "cannot set the mode", errno);
    writeWholeFile(fd.get(), file.bytes, temporary);
    if (::fsync(fd.get()) != 0 || fd.close() != 0) {
      throw systemError(temporary, "cannot write the backup", errno);
    }
    // rename replaces a link of that name, never what it points to.
    if (::rename(temporary.c_str(), name.c_str()) != 0) {
      throw systemError(name, "cannot write the backup", errno);
    }
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  syncDirectory(directoryOf(name));
  return name;
}

std::optional<std::string> readBackup(const SettingsFile& file) {
  const std::string name = backupPath(file);
  detail::FileDescriptor fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw systemError(name, "cannot read the backup", errno);
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) throw systemError(name, "cannot examine", errno);
  if (!S_ISREG(st.st_mode)) throw SettingsFileError(name + ": the backup is not a regular file");
  return readAll(fd.get(), name);
}

void removeBackup(const SettingsFile& file) {
  const std::string name = backupPath(file);
  if (::unlink(name.c_str()) != 0 && errno != ENOENT) {
    throw systemError(name, "cannot remove the backup", errno);
  }
  syncDirectory(directoryOf(name));
}

void writeSettingsFile(const SettingsFile& file, const ordered_json& content) {
  writeSettingsBytes(file, content.dump(2) + "\n");
}

void writeSettingsBytes(const SettingsFile& file, const std::string& bytes) {
  const std::string dir = directoryOf(file.target);
  if (!file.exists) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw SettingsFileError(dir + ": cannot create the directory: " + ec.message());
  }
  std::string temporary = file.target + ".toolguard-tmp-XXXXXX";
  detail::FileDescriptor fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (fd.get() < 0) throw systemError(temporary, "cannot create", errno);
  try {
    const mode_t mode = file.exists ? file.mode : newFileMode();
    if (::fchmod(fd.get(), mode) != 0) throw systemError(temporary, "cannot set the mode", errno);
    if (file.exists && ::geteuid() == 0) {
      // root editing someone's file: the file stays theirs.
      if (::fchown(fd.get(), file.owner, file.group) != 0) {
        throw systemError(temporary, "cannot keep the owner", errno);
      }
    }
    writeWholeFile(fd.get(), bytes, temporary);
    if (::fsync(fd.get()) != 0 || fd.close() != 0) {
      throw systemError(temporary, "cannot write", errno);
    }
    requireUnchanged(file);
    if (file.exists) {
      if (::rename(temporary.c_str(), file.target.c_str()) != 0) {
        throw systemError(file.target, "cannot replace", errno);
      }
    } else {
      // A new file: link() fails if another program created it meanwhile.
      if (::link(temporary.c_str(), file.target.c_str()) != 0) {
        if (errno == EEXIST) requireUnchanged(file);
        throw systemError(file.target, "cannot create", errno);
      }
      ::unlink(temporary.c_str());
    }
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
  syncDirectory(dir);
}

bool removeSettingsFile(const SettingsFile& file) {
  if (!file.exists) return false;
  if (file.symlink) {
    writeSettingsFile(file, ordered_json::object());
    return false;
  }
  requireUnchanged(file);
  if (::unlink(file.path.c_str()) != 0) throw systemError(file.path, "cannot remove", errno);
  syncDirectory(directoryOf(file.path));
  return true;
}

}  // namespace toolguard::cli
