// libFuzzer target: path resolution against a cwd and a home. The first byte
// holds flags (follow symlinks, case sensitivity); the rest is a path, a cwd
// and a home split at NUL bytes (a path cannot hold one). The oracle: the
// normalized path is absolute and lexically normal (no empty, `.` or `..`
// component, no trailing slash), normalizing it again changes nothing, it
// lies within itself and within `/`, and resolvePath's lexical form is it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_input.hpp"
#include "toolguard/paths.hpp"

namespace {

bool lexicallyNormal(std::string_view path) {
  if (path.empty() || path.front() != '/') return false;
  if (path == "/") return true;
  if (path.back() == '/') return false;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view component = path.substr(start, end - start);
    if (component.empty() || component == "." || component == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string absolute(std::string text) {
  if (text.empty() || text.front() != '/') text.insert(text.begin(), '/');
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace toolguard;
  fuzz::FuzzInput input(data, size);
  const uint8_t flags = input.takeByte();
  const std::vector<std::string> parts = input.parts(3);
  const std::string& path = parts[0];
  const std::string cwd = normalizePath(absolute(parts[1]), "/", "/");
  const std::string home = normalizePath(absolute(parts[2]), "/", "/");
  if (!lexicallyNormal(cwd) || !lexicallyNormal(home)) __builtin_trap();

  const std::string normal = normalizePath(path, cwd, home);
  if (path.empty()) {
    if (!normal.empty()) __builtin_trap();
    return 0;
  }
  if (!lexicallyNormal(normal)) __builtin_trap();
  if (normalizePath(normal, "/", home) != normal) __builtin_trap();
  if (!isWithin(normal, normal) || !isWithin(normal, "/")) __builtin_trap();
  if (!isWithin(normal, normal, true)) __builtin_trap();

  PathOptions options;
  options.home = home;
  options.follow_symlinks = (flags & 1) != 0;
  options.case_sensitivity =
      (flags & 2) != 0 ? CaseSensitivity::Insensitive : CaseSensitivity::Sensitive;
  const PathValidation resolved = resolvePath(cwd, path, options);
  if (resolved) {
    if (resolved.path->lexical != normal) __builtin_trap();
    if (!options.follow_symlinks && resolved.path->resolved != normal) __builtin_trap();
    if (!lexicallyNormal(resolved.path->resolved)) __builtin_trap();
  } else if (resolved.error.empty()) {
    __builtin_trap();  // a refusal always says why
  }
  (void)validatePath(cwd, path, options);
  return 0;
}
