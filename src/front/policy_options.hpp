#pragma once
// Options every policy-using sub-command shares, and engines built from them.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "toolguard/engine.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::front {

/// Which policy layers to load.
struct PolicyOptions {
  std::vector<std::string> policy_files;  ///< --policy FILE (explicit layer)
  std::vector<std::string> profiles;      ///< --profile NAME (on top of the default)
  std::string project;                    ///< --project DIR (else found from the cwd)
  bool no_builtin = false;
  bool no_user = false;
  bool no_project = false;
  bool no_managed = false;
  /// Where parsed policy trees are kept between processes (check: HOME/cache/policy-trees).
  std::string tree_cache_dir;
  /// Directories of toolguard's own named on the command line (--home).
  std::vector<std::string> guarded_dirs;
};

/// The policy sources for a call made in `cwd`.
PolicySources sourcesFor(const PolicyOptions& options, const std::string& cwd);

/// An engine and the project roots whose layers it was built with.
struct ProjectEngine {
  Engine engine;
  std::vector<std::filesystem::path> project_roots;
};

/// Builds and caches engines: one per project root, since the project layer
/// depends on where a call is made.
class EngineProvider {
 public:
  explicit EngineProvider(PolicyOptions options) : options_(std::move(options)) {}

  /// The engine for calls made in `cwd`, with its project roots. Throws
  /// PolicyError. A cwd's project roots are looked up once per process (the
  /// engines are kept too: a policy changed while `--batch` runs is read by
  /// the next process).
  const ProjectEngine& forCwd(const std::string& cwd);

 private:
  PolicyOptions options_;
  std::map<std::string, std::unique_ptr<ProjectEngine>> by_project_;
  std::map<std::string, const ProjectEngine*> by_cwd_;
};

/// The process's working directory.
std::string currentDirectory();

}  // namespace toolguard::front
