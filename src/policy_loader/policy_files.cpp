// Reading policy files and layering them: built-in, user, project, explicit, managed.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include "foreign_policy/policy_translators.hpp"
#include "policy/bounded_file.hpp"
#include "policy/embedded_profiles.hpp"
#include "policy/guard_plugins.hpp"
#include "policy/policy_document.hpp"
#include "policy/policy_tree_cache.hpp"
#include "toolguard/approval_store.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_builder.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard {
namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// *.yaml and *.yml files of a directory, sorted by name; none if it does not exist.
std::vector<fs::path> policyFilesIn(const fs::path& dir) {
  return detail::configFilesIn(dir, {".yaml", ".yml"});
}

// `*`, `?`, `[` and `\` in a directory name stand for themselves in a glob.
std::string escapeGlobCharacters(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The process's working directory ("/" when it cannot be told).
std::string currentWorkingDirectory() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return ec ? std::string("/") : cwd.string();
}

// Denies writes into the configuration directories this load actually used,
// wherever environment variables moved them (the default policy names only
// the usual places).
std::shared_ptr<const Rule> guardLocationsRule(const PolicySources& sources) {
  RuleSpec spec;
  spec.header.id = "guard-config-locations";
  spec.header.source = SourceLocation{"<builtin:guard-config-locations>", 0, 0};
  spec.header.layer = PolicyLayer::Builtin;
  spec.header.target.kinds = {ToolKind::FileWrite};
  const std::string home = homeDirectory();
  PathMatcher locations;
  // The user and managed policy directories, toolguard's home (approvals,
  // the LLM validator's verdict cache, its skills) and the other agents'
  // guard-skills directories, whose texts instruct the LLM validator.
  std::vector<fs::path> dirs = {sources.user_dir, sources.managed_dir, toolguardHome()};
  // A toolguard home named on the command line (`check --home DIR`) holds
  // approvals and the audit log too.
  dirs.insert(dirs.end(), sources.guarded_dirs.begin(), sources.guarded_dirs.end());
  for (const char* agent_dir : {".agents", ".claude", ".bitcode"}) {
    dirs.push_back(fs::path(home) / agent_dir / "guard-skills");
  }
  // The user's guard plugins (the project's are covered by guard-config-write).
  for (const fs::path& dir : sources.user_plugin_dirs) dirs.push_back(dir);
  for (const fs::path& dir : dirs) {
    if (dir.empty()) continue;
    // A relative directory (TOOLGUARD_HOME=tgh) is where this process uses it:
    // under its working directory (asked only for such a directory).
    const std::string cwd = dir.is_absolute() ? std::string("/") : currentWorkingDirectory();
    locations.glob.push_back(escapeGlobCharacters(normalizePath(dir.string(), cwd, home)) + "/**");
  }
  if (locations.glob.empty()) return nullptr;
  spec.path = std::move(locations);
  spec.verdict = Verdict::Deny;
  spec.reason = "writing toolguard's own configuration would let an agent switch its guard off";
  return compileRule(std::move(spec));
}

// A project directory someone else could have planted (another user's, or one
// anybody may write to, as under /tmp) is not a project layer.
bool belongsToUser(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  if (st.st_uid != ::getuid() && st.st_uid != 0) return false;
  return (st.st_mode & S_IWOTH) == 0;
}

// A plugin file read and parsed, with the layer it loads as.
struct LoadedPlugin {
  detail::GuardPlugin plugin;
  PolicyLayer layer;
};

// Reads the plugins of `dirs` into `plugins`, by id: a later plugin with the
// same id replaces an earlier one, except that a project plugin never
// replaces a user plugin (it could loosen it).
void readPlugins(Policy& policy, const std::vector<fs::path>& dirs, PolicyLayer layer,
                 std::vector<LoadedPlugin>& plugins, std::vector<PolicyDiagnostic>& errors) {
  for (const fs::path& dir : dirs) {
    for (const fs::path& file : detail::guardPluginFiles(dir)) {
      try {
        detail::GuardPlugin plugin = detail::parseGuardPlugin(
            detail::readBoundedFile(file, kMaxPolicyFileBytes, "guard plugin"), file.string(),
            layer, policy.tools);
        auto same = std::find_if(plugins.begin(), plugins.end(),
                                 [&](const LoadedPlugin& p) { return p.plugin.id == plugin.id; });
        if (same == plugins.end()) {
          plugins.push_back({std::move(plugin), layer});
        } else if (same->layer != PolicyLayer::Project && layer == PolicyLayer::Project) {
          policy.warnings.push_back({plugin.rule.header.source,
                                     "guard plugin " + plugin.id +
                                         " ignored: a project plugin cannot replace the plugin "
                                         "of the same id from " +
                                         same->plugin.rule.header.source.file});
        } else {
          *same = LoadedPlugin{std::move(plugin), layer};
        }
      } catch (const PolicyError& e) {
        errors.insert(errors.end(), e.errors().begin(), e.errors().end());
      }
    }
  }
}

// The guard plugins: the user's, then those of trusted project directories.
void mergeGuardPlugins(Policy& policy, const PolicySources& sources,
                       const std::vector<std::string>& trusted_roots) {
  std::vector<LoadedPlugin> plugins;
  std::vector<PolicyDiagnostic> errors;
  readPlugins(policy, sources.user_plugin_dirs, PolicyLayer::User, plugins, errors);
  for (const fs::path& project : sources.plugin_project_roots) {
    const std::string root = normalizePath(project.string(), "/", homeDirectory());
    const std::vector<fs::path> dirs = detail::guardPluginDirs(project);
    if (std::find(trusted_roots.begin(), trusted_roots.end(), root) == trusted_roots.end()) {
      for (const fs::path& dir : dirs) {
        if (!detail::guardPluginFiles(dir).empty()) {
          policy.warnings.push_back({SourceLocation{dir.string(), 0, 0},
                                     "guard plugins not loaded: the project " + root +
                                         " is not in a user file's trusted_projects"});
        }
      }
      continue;
    }
    readPlugins(policy, dirs, PolicyLayer::Project, plugins, errors);
  }
  if (!errors.empty()) throw PolicyError(std::move(errors));
  for (LoadedPlugin& loaded : plugins) {
    detail::PolicyDocument doc;
    doc.name = loaded.plugin.rule.header.source.file;
    doc.rules.push_back(std::move(loaded.plugin.rule));
    detail::mergeDocument(policy, std::move(doc), loaded.layer, /*trusted=*/true);
  }
}

// True when `dir` holds a guard plugin directory that belongs to the user.
bool hasPluginDir(const fs::path& dir) {
  const std::vector<fs::path> dirs = detail::guardPluginDirs(dir);
  return std::any_of(dirs.begin(), dirs.end(), [](const fs::path& d) { return belongsToUser(d); });
}

}  // namespace

void mergePolicyText(Policy& policy, std::string_view text, const std::string& name,
                     PolicyLayer layer, bool trusted) {
  detail::PolicyDocument doc = detail::parsePolicyDocument(text, name, layer, policy.tools);
  detail::mergeDocument(policy, std::move(doc), layer, trusted);
}

namespace {

// One policy file into `policy`; its YAML tree from `tree_cache` when given.
void mergeFile(Policy& policy, const fs::path& file, PolicyLayer layer, bool trusted,
               const detail::PolicyTreeCache* tree_cache) {
  const std::string text = detail::readBoundedFile(file, kMaxPolicyFileBytes, "policy file");
  const std::string name = file.string();
  detail::PolicyDocument doc;
  if (const detail::PolicyTranslator* translator = detail::translatorOfFile(name)) {
    // Another agent's policy, read as it is (see `toolguard policy import`).
    detail::ForeignPolicy imported = translator->translate(text, name, layer);
    for (detail::ImportNote& note : imported.notes) {
      policy.warnings.push_back({std::move(note.where), std::move(note.message)});
    }
    doc = std::move(imported.document);
  } else if (detail::isGuardPluginText(text, name)) {
    doc.name = name;
    doc.rules.push_back(detail::parseGuardPlugin(text, name, layer, policy.tools).rule);
  } else if (tree_cache != nullptr && layer != PolicyLayer::Managed) {
    doc = detail::parsePolicyTree(tree_cache->tree(text, file, name), name, layer, policy.tools,
                                  /*read_examples=*/true);
  } else {
    doc = detail::parsePolicyDocument(text, name, layer, policy.tools);
  }
  detail::mergeDocument(policy, std::move(doc), layer, trusted);
}

}  // namespace

void mergePolicyFile(Policy& policy, const fs::path& file, PolicyLayer layer, bool trusted) {
  mergeFile(policy, file, layer, trusted, nullptr);
}

std::vector<std::string> trustedProjects(const Policy& policy) {
  std::vector<std::string> out;
  const std::string home = homeDirectory();
  for (const std::string& p : policy.trusted_projects) out.push_back(normalizePath(p, "/", home));
  return out;
}

PolicySources discoverPolicySources(const fs::path& cwd) {
  PolicySources sources;
  const std::string home = homeDirectory();
  if (std::string dir = env("TOOLGUARD_CONFIG_DIR"); !dir.empty()) {
    sources.user_dir = dir;
  } else if (std::string xdg = env("XDG_CONFIG_HOME"); !xdg.empty()) {
    sources.user_dir = fs::path(xdg) / "toolguard";
  } else {
    sources.user_dir = fs::path(home) / ".config" / "toolguard";
  }
  std::string managed = env("TOOLGUARD_MANAGED_DIR");
  sources.managed_dir = managed.empty() ? fs::path("/etc/toolguard") : fs::path(managed);

  sources.user_plugin_dirs = {fs::path(toolguardHome()) / "guards"};
  for (const char* agent_dir : {".agents", ".claude", ".bitcode"}) {
    sources.user_plugin_dirs.push_back(fs::path(home) / agent_dir / "guards");
  }

  const std::string start = normalizePath(cwd.string(), "/", home);
  for (fs::path dir = start;; dir = dir.parent_path()) {
    if (dir.string() != home && belongsToUser(dir / ".toolguard")) {
      sources.project_roots.insert(sources.project_roots.begin(), dir);
    }
    if (dir.string() != home && hasPluginDir(dir)) {
      sources.plugin_project_roots.insert(sources.plugin_project_roots.begin(), dir);
    }
    if (dir == dir.parent_path()) break;
  }
  return sources;
}

Policy loadPolicy(const PolicySources& sources) {
  Policy policy;
  std::optional<detail::PolicyTreeCache> cache;
  if (!sources.tree_cache_dir.empty()) cache.emplace(sources.tree_cache_dir);
  const detail::PolicyTreeCache* tree_cache = cache ? &*cache : nullptr;
  std::vector<std::string> profiles;
  if (sources.builtin) profiles.push_back("default");
  profiles.insert(profiles.end(), sources.profiles.begin(), sources.profiles.end());
  for (const std::string& name : profiles) {
    if (!detail::mergeProfile(policy, name, PolicyLayer::Builtin,
                              sources.builtin_examples ? detail::ProfileExamples::Read
                                                       : detail::ProfileExamples::Skip)) {
      throw PolicyError(SourceLocation{"<builtin>", 0, 0}, detail::unknownProfileMessage(name));
    }
  }
  for (const fs::path& file : policyFilesIn(sources.user_dir)) {
    mergeFile(policy, file, PolicyLayer::User, true, tree_cache);
  }
  const std::vector<std::string> trusted_roots = trustedProjects(policy);
  for (const fs::path& project : sources.project_roots) {
    const std::string root = normalizePath(project.string(), "/", homeDirectory());
    const bool trusted =
        std::find(trusted_roots.begin(), trusted_roots.end(), root) != trusted_roots.end();
    for (const fs::path& file : policyFilesIn(project / ".toolguard")) {
      mergeFile(policy, file, PolicyLayer::Project, trusted, tree_cache);
    }
  }
  mergeGuardPlugins(policy, sources, trusted_roots);
  for (const fs::path& file : sources.explicit_files) {
    mergeFile(policy, file, PolicyLayer::Explicit, true, tree_cache);
  }
  for (const fs::path& file : policyFilesIn(sources.managed_dir)) {
    mergePolicyFile(policy, file, PolicyLayer::Managed);
  }
  if (auto rule = guardLocationsRule(sources)) policy.rules.push_back(std::move(rule));
  if (!sources.check_examples) return policy;
  // The embedded profiles' examples are checked by the test suite and by
  // `toolguard test`; every other layer's are checked on every load.
  if (auto failures = checkRuleExamples(policy, /*include_builtin=*/false); !failures.empty()) {
    throw PolicyError(std::move(failures));
  }
  return policy;
}

}  // namespace toolguard
