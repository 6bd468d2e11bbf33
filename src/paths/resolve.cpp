// Following symlinks the way the kernel does, for paths that may not exist yet.
#include "resolve.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <vector>

#include "file_glance.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

// The kernel gives up after 40 links (ELOOP); so do we.
constexpr int kMaxSymlinks = 40;

// Pushes the components of `path` so that the first is on top of the stack.
void pushComponents(std::string_view path, std::vector<std::string>& stack) {
  std::vector<std::string> parts;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    std::string_view part = path.substr(0, slash);
    if (!part.empty() && part != ".") parts.emplace_back(part);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  stack.insert(stack.end(), parts.rbegin(), parts.rend());
}

std::optional<std::string> readLink(const std::string& path) {
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink(path.c_str(), buffer, sizeof buffer);
  if (n < 0 || static_cast<size_t>(n) >= sizeof buffer) return std::nullopt;
  return std::string(buffer, static_cast<size_t>(n));
}

}  // namespace

std::optional<Resolution> resolveExisting(std::string_view absolute_path) {
  std::vector<std::string> pending;
  pushComponents(absolute_path, pending);
  Resolution out;
  std::string resolved;   // "" stands for "/"
  std::string directory;  // deepest existing directory; "" stands for "/"
  bool exists = true;
  int links = 0;
  while (!pending.empty()) {
    std::string part = std::move(pending.back());
    pending.pop_back();
    if (part == "..") {
      const size_t slash = resolved.rfind('/');
      resolved.resize(slash == std::string::npos ? 0 : slash);
      if (exists) directory = resolved;
      continue;
    }
    std::string candidate = resolved + "/" + part;
    struct stat info {};
    if (!exists || !glanceLstat(candidate, info)) {
      exists = false;
      resolved = std::move(candidate);
      continue;
    }
    if (S_ISLNK(info.st_mode)) {
      if (++links > kMaxSymlinks) return std::nullopt;
      std::optional<std::string> target = readLink(candidate);
      if (!target || target->empty()) {  // unreadable: treat as a name that leads nowhere
        exists = false;
        resolved = std::move(candidate);
        continue;
      }
      if (target->front() == '/') resolved.clear();
      pushComponents(*target, pending);
      continue;
    }
    resolved = std::move(candidate);
    if (S_ISDIR(info.st_mode)) {
      directory = resolved;
    } else {
      exists = false;  // a file: nothing can lie below it
    }
  }
  out.resolved = resolved.empty() ? "/" : resolved;
  out.existing_directory = directory.empty() ? "/" : directory;
  return out;
}

}  // namespace toolguard::detail

namespace toolguard {

std::optional<std::string> resolveSymlinks(std::string_view absolute_path) {
  std::optional<detail::Resolution> r = detail::resolveExisting(absolute_path);
  if (!r) return std::nullopt;
  return std::move(r->resolved);
}

}  // namespace toolguard
