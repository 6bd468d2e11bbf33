// Directories given to `test` and `policy lint`: the policy files under them.
#include "cli/policy_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "toolguard/policy_error.hpp"

namespace toolguard::cli {
namespace {

namespace fs = std::filesystem;

bool isPolicyFileName(const fs::path& file) {
  const std::string ext = file.extension().string();
  const auto& known = policyDirectoryExtensions();
  return std::find(known.begin(), known.end(), ext) != known.end();
}

// The policy files under `dir`, sorted; throws when it cannot be listed.
std::vector<std::string> policyFilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  for (const fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.filename().string().starts_with('.')) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    std::error_code kind_ec;
    if (it->is_symlink(kind_ec) && fs::is_directory(path, kind_ec)) continue;
    if (it->is_directory(kind_ec) || !isPolicyFileName(path)) continue;
    files.push_back(path.string());
  }
  if (ec) {
    throw PolicyError(SourceLocation{dir, 0, 0}, "cannot list the directory: " + ec.message());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<std::string> expandPolicyPaths(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      files.push_back(path);  // a file, or nothing: reading it says what is wrong
      continue;
    }
    std::vector<std::string> found = policyFilesUnder(path);
    if (found.empty()) {
      throw PolicyError(SourceLocation{path, 0, 0},
                        "no policy or test files (*.yaml, *.yml) in this directory or under it");
    }
    files.insert(files.end(), std::make_move_iterator(found.begin()),
                 std::make_move_iterator(found.end()));
  }
  return files;
}

}  // namespace toolguard::cli
