#pragma once
// Path helpers every rule uses: making a path absolute against the call's
// working directory and testing containment by whole components.

#include <string>
#include <string_view>

namespace toolguard {

/// Makes `path` absolute and lexically normal: a leading `~` or `~/` becomes
/// `home`, a relative path is joined to `cwd` (not the process's directory),
/// and `.`, `..` and repeated slashes are removed (`..` never climbs above `/`).
/// Symlinks are not followed. An empty path stays empty.
std::string normalizePath(std::string_view path, std::string_view cwd, std::string_view home);

/// True when the normalized absolute `path` is `root` or lies inside it,
/// comparing whole components: `/data2` is not inside `/data`. An empty root
/// contains nothing.
bool isWithin(std::string_view path, std::string_view root);

/// The home directory ($HOME, else the password database, else "/").
std::string homeDirectory();

}  // namespace toolguard
