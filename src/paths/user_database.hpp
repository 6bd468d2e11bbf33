#pragma once
// Internal: home directories from the user database, for `~` when $HOME is
// unset and for `~user` in a command. The library asks the C library
// (user_database.cpp, NSS); the statically linked command links its own
// reading of /etc/passwd instead (src/cli/static_lookups.cpp), so that it
// never depends on NSS modules of the glibc it was built with.

#include <optional>
#include <string>

namespace toolguard::detail {

/// The home directory of the user called `name`; nullopt when there is no
/// such user (or no home directory is recorded).
std::optional<std::string> homeOfUser(const std::string& name);

/// The home directory of the user this process runs as; nullopt when the
/// user database has none.
std::optional<std::string> homeOfThisUser();

}  // namespace toolguard::detail
