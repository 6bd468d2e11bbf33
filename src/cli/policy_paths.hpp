#pragma once
// `toolguard test` and `policy lint` take directories as well as files (as
// `opa test` does): a directory stands for the policy files under it.

#include <string>
#include <vector>

namespace toolguard::cli {

/// The file extensions a directory is searched for: toolguard's own policy
/// and test files. Other agents' formats (.json, .toml, .rules) are read
/// only when named as files: a directory's package.json is not a policy.
inline const std::vector<std::string>& policyDirectoryExtensions() {
  static const std::vector<std::string> extensions = {".yaml", ".yml"};
  return extensions;
}

/// `paths` with each directory replaced by the *.yaml and *.yml files under
/// it, at any depth, sorted by path (entries whose name starts with '.' and
/// symbolic links to directories are skipped); files are kept as given, in
/// order. Throws PolicyError naming a directory under which no policy file
/// was found, or one that cannot be listed.
std::vector<std::string> expandPolicyPaths(const std::vector<std::string>& paths);

}  // namespace toolguard::cli
