// Home directories through the C library's user database (NSS). Kept out of
// unity batches: the statically linked command replaces this file's
// functions with its own (src/cli/static_lookups.cpp), which works only while
// they are alone in their object file.
#include "user_database.hpp"

#include <pwd.h>
#include <unistd.h>

#include <vector>

namespace toolguard::detail {
namespace {

// getpwnam_r / getpwuid_r with a buffer that grows until the entry fits.
template <typename Lookup>
std::optional<std::string> homeFrom(Lookup lookup) {
  std::vector<char> buffer(1024);
  for (;;) {
    passwd entry{};
    passwd* found = nullptr;
    const int rc = lookup(&entry, buffer.data(), buffer.size(), &found);
    if (rc == ERANGE && buffer.size() < (1u << 20)) {
      buffer.resize(buffer.size() * 4);
      continue;
    }
    if (rc != 0 || found == nullptr || found->pw_dir == nullptr) return std::nullopt;
    return std::string(found->pw_dir);
  }
}

}  // namespace

std::optional<std::string> homeOfUser(const std::string& name) {
  return homeFrom([&](passwd* entry, char* buffer, size_t size, passwd** found) {
    return getpwnam_r(name.c_str(), entry, buffer, size, found);
  });
}

std::optional<std::string> homeOfThisUser() {
  return homeFrom([](passwd* entry, char* buffer, size_t size, passwd** found) {
    return getpwuid_r(getuid(), entry, buffer, size, found);
  });
}

}  // namespace toolguard::detail
