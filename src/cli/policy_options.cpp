// Shared policy options and the per-project engine cache.
#include "cli/policy_options.hpp"

#include <filesystem>

#include "policy/embedded_profiles.hpp"
#include "toolguard/policy_builder.hpp"

namespace toolguard::cli {

void addPolicyOptions(CLI::App& command, PolicyOptions& o) {
  command.add_option("--policy", o.policy_files, "Add a policy file (explicit layer); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);  // one file per --policy: `-- COMMAND` stays positional
  command
      .add_option("--profile", o.profiles,
                  "Add a ready-made profile on top of the default: read-only-chat, "
                  "developer-assistant, document-processing")
      ->type_name("NAME")
      ->check(CLI::Validator(
          [](std::string& name) -> std::string {
            return policyProfileText(name) != nullptr ? "" : detail::unknownProfileMessage(name);
          },
          ""))
      ->allow_extra_args(false);
  command
      .add_option("--project", o.project,
                  "Workspace whose .toolguard/ is the project layer (default: found from "
                  "the call's cwd upwards)")
      ->type_name("DIR");
  command.add_flag("--no-builtin", o.no_builtin, "Do not load the built-in default policy");
  command.add_flag("--no-user", o.no_user, "Do not load the user's policy files");
  command.add_flag("--no-project", o.no_project, "Do not load the project's policy files");
  command.add_flag("--no-managed", o.no_managed, "Do not load managed policy files");
}

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

}  // namespace toolguard::cli
