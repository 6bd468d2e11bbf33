// Shared policy options and the per-project engine cache.
#include "front/policy_options.hpp"

#include <filesystem>

#include "toolguard/policy_builder.hpp"

namespace toolguard::front {

std::string currentDirectory() {
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  return ec ? std::string("/") : cwd.string();
}

PolicySources sourcesFor(const PolicyOptions& o, const std::string& cwd) {
  PolicySources s = discoverPolicySources(cwd);
  if (!o.project.empty()) s.project_roots = {std::filesystem::absolute(o.project)};
  s.builtin = !o.no_builtin;
  s.profiles = o.profiles;
  if (o.no_user) s.user_dir.clear();
  if (o.no_project) s.project_roots.clear();
  if (o.no_managed) s.managed_dir.clear();
  for (const auto& f : o.policy_files) s.explicit_files.emplace_back(f);
  s.tree_cache_dir = o.tree_cache_dir;
  for (const auto& d : o.guarded_dirs) s.guarded_dirs.emplace_back(d);
  return s;
}

const ProjectEngine& EngineProvider::forCwd(const std::string& cwd) {
  if (auto known = by_cwd_.find(cwd); known != by_cwd_.end()) return *known->second;
  PolicySources sources = sourcesFor(options_, cwd);
  std::string key;
  for (const auto& root : sources.project_roots) key += root.string() + '\n';
  auto it = by_project_.find(key);
  if (it == by_project_.end()) {
    auto built = std::make_unique<ProjectEngine>(
        ProjectEngine{Engine(loadPolicy(sources)), std::move(sources.project_roots)});
    it = by_project_.emplace(key, std::move(built)).first;
  }
  by_cwd_.emplace(cwd, it->second.get());
  return *it->second;
}

}  // namespace toolguard::front
