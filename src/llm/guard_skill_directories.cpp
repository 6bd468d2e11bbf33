// Where user and project guard skills live. A project's skills are read only
// when the user trusts the project: a cloned repository must not be able to
// instruct the validator that judges its own commands.
#include <algorithm>

#include "toolguard/guard_skills.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard {
namespace fs = std::filesystem;

namespace {

// The user's toolguard configuration directory, by the same rule as the
// policy files' user layer ($TOOLGUARD_CONFIG_DIR, $XDG_CONFIG_HOME/toolguard,
// ~/.config/toolguard). Discovering from "/" looks at no project but /.
fs::path userConfigDirectory() {
  return discoverPolicySources("/").user_dir;
}

}  // namespace

std::vector<fs::path> guardSkillDirectories(const fs::path& toolguard_home,
                                            const std::vector<fs::path>& project_roots,
                                            const std::vector<std::string>& trusted_projects) {
  const std::string home = homeDirectory();
  std::vector<fs::path> dirs;
  if (!toolguard_home.empty()) dirs.push_back(toolguard_home / "guard-skills");
  if (fs::path config = userConfigDirectory(); !config.empty()) {
    dirs.push_back(config / "guard-skills");
  }
  for (const char* agent_dir : {".agents", ".claude", ".bitcode"}) {
    dirs.push_back(fs::path(home) / agent_dir / "guard-skills");
  }

  // Trusted as policy layers are (loadPolicy): the normalized root is one of
  // the normalized trusted projects.
  std::vector<std::string> trusted;
  for (const std::string& project : trusted_projects) {
    if (!project.empty()) trusted.push_back(normalizePath(project, "/", home));
  }
  for (const fs::path& root : project_roots) {
    if (root.empty()) continue;
    const std::string normalized = normalizePath(root.string(), "/", home);
    if (std::find(trusted.begin(), trusted.end(), normalized) != trusted.end()) {
      dirs.push_back(fs::path(normalized) / ".toolguard" / "guard-skills");
    }
  }
  return dirs;
}

}  // namespace toolguard
