#pragma once
// Path helpers every rule uses: making a path absolute against the call's
// working directory, following symlinks, testing containment by whole
// components, and refusing paths no file tool should be given.

#include <optional>
#include <string>
#include <string_view>

#include "toolguard/expected.hpp"

namespace toolguard {

/// Makes `path` absolute and lexically normal: a leading `~` or `~/` becomes
/// `home`, a relative path is joined to `cwd` (not the process's directory),
/// and `.`, `..` and repeated slashes are removed (`..` never climbs above `/`).
/// Symlinks are not followed. An empty path stays empty.
std::string normalizePath(std::string_view path, std::string_view cwd, std::string_view home);

/// True when the normalized absolute `path` is `root` or lies inside it,
/// comparing whole components: `/data2` is not inside `/data`. An empty root
/// contains nothing. `case_insensitive` compares ASCII letters without case.
bool isWithin(std::string_view path, std::string_view root, bool case_insensitive = false);

/// The home directory ($HOME, else the password database, else "/").
std::string homeDirectory();

/// Whether file names compare without regard to case. Auto asks the file
/// system that holds the path (see isCaseInsensitiveDirectory).
enum class CaseSensitivity { Auto, Sensitive, Insensitive };

/// The lowercase name ("auto", "sensitive", "insensitive").
std::string_view toString(CaseSensitivity value);

/// Parses "auto", "sensitive" or "insensitive"; nullopt otherwise.
std::optional<CaseSensitivity> parseCaseSensitivity(std::string_view name);

/// A path argument made absolute and resolved.
struct ResolvedPath {
  /// Absolute and lexically normal (normalizePath); what the tool was told.
  std::string lexical;
  /// `lexical` with every symlink along its longest existing prefix followed
  /// (also a dangling last link), and the part that does not exist yet
  /// appended: where a write would really land.
  std::string resolved;
  /// Where the path leads when `..` is removed by name first and symlinks are
  /// followed after (as tools that normalize before opening do); set only
  /// when that differs from `resolved`, where `..` after a symlink climbs out
  /// of the link's target as the kernel does.
  std::string resolved_after_normalizing;
  /// The file system holding `resolved` compares names without case: path
  /// patterns then ignore case (containment never does: a folded match could
  /// only widen the workspace).
  bool case_insensitive = false;
};

/// True when `test` holds for any form of the path (lexical, resolved, or
/// resolved after normalizing): how restricting checks read a path.
template <typename Test>
bool anyForm(const ResolvedPath& path, Test test) {
  return test(path.lexical) || (path.resolved != path.lexical && test(path.resolved)) ||
         (!path.resolved_after_normalizing.empty() && test(path.resolved_after_normalizing));
}

/// True when `test` holds for every form of the path: how loosening checks read it.
template <typename Test>
bool everyForm(const ResolvedPath& path, Test test) {
  return test(path.lexical) && (path.resolved == path.lexical || test(path.resolved)) &&
         (path.resolved_after_normalizing.empty() || test(path.resolved_after_normalizing));
}

/// How resolvePath and validatePath work; the defaults suit a decision on the
/// local machine.
struct PathOptions {
  std::string home;  ///< value of `~`; empty: homeDirectory()
  CaseSensitivity case_sensitivity = CaseSensitivity::Auto;
  bool follow_symlinks = true;  ///< false: resolved == lexical (for paths of another machine)
};

/// resolvePath's and validatePath's answer: the resolved path, or why the path
/// is refused. False when refused.
struct PathValidation {
  std::optional<ResolvedPath> path;
  std::string error;  ///< set when path is nullopt
  explicit operator bool() const { return path.has_value(); }
};

/// Checks and resolves a path a tool is given, relative to `base` (the call's
/// working directory; "/" when empty): rejects an empty path, NUL and other
/// control characters (U+0000-U+001F, U+007F) and over-long paths; expands
/// `~`; normalizes `.` and `..`; follows symlinks (a loop, or a link target
/// with a control character, is refused); and tells whether the file system
/// ignores case. Not a containment check: `../../etc/passwd` resolves fine
/// (to /etc/passwd); use validatePath to keep a path inside `base`.
PathValidation resolvePath(std::string_view base, std::string_view path,
                           const PathOptions& options = {});

/// resolvePath, and then a containment check: the path is accepted only when
/// every form of it stays within `base` by whole components (isWithin, never
/// folding case): the lexical form within `base` (as written or resolved),
/// the resolved form and, when set, the resolved-after-normalizing form
/// within `base` resolved. So `../../etc/passwd`, an absolute path elsewhere
/// and a symlink inside `base` that leads out are refused ("... escapes
/// BASE"), while a file that does not exist yet inside `base` is accepted.
/// `base` itself is accepted. An empty `base` contains nothing (refused).
/// A relative `base` is taken from "/", as resolvePath does.
PathValidation validatePath(std::string_view base, std::string_view path,
                            const PathOptions& options = {});

/// Fails, saying why, for a path string that is unacceptable (empty, a
/// control character, too long); names the offending byte offset.
Expected<void> checkPathCharacters(std::string_view path);

/// Follows the symlinks of an absolute, lexically normal path component by
/// component, as the kernel would, up to the first component that does not
/// exist; the rest is appended lexically. Returns nullopt after 40 links (a
/// loop), like the kernel's ELOOP.
std::optional<std::string> resolveSymlinks(std::string_view absolute_path);

/// True when names in the existing directory `dir` compare without case: a
/// case-folding file system (vfat, exFAT, SMB/CIFS, HFS+), an ext4 or f2fs
/// directory with the casefold attribute, or a macOS volume that says so.
/// False when `dir` cannot be examined.
bool isCaseInsensitiveDirectory(const std::string& dir);

}  // namespace toolguard
