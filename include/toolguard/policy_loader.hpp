#pragma once
// Policy files: parsing, layering and discovery.
//
// Layers, from first loaded to last: built-in defaults, user
// (~/.config/toolguard/*.yaml), project (.toolguard/*.yaml in the workspace),
// explicit (--policy FILE), managed (/etc/toolguard/*.yaml). Every rule of every
// layer is consulted and the strictest finding wins, so adding a rule never
// loosens another. What a later layer can replace (the default verdict, a tool's
// description and policy, a rule with the same id) it may only tighten when the
// earlier setting is managed, or when it comes from an untrusted project.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/policy.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard {

/// Where the policy layers are read from. Empty paths are skipped.
struct PolicySources {
  bool builtin = true;                ///< the built-in layer: the "default" profile
  std::vector<std::string> profiles;  ///< further ready-made profiles, on top of "default"
  std::filesystem::path user_dir;     ///< user layer directory
  /// Workspaces holding a `.toolguard/` directory, outermost first; each is a
  /// project layer, trusted only if the user's trust list names it.
  std::vector<std::filesystem::path> project_roots;
  std::vector<std::filesystem::path> explicit_files;  ///< --policy files, in order
  /// The user's guard plugin directories, lowest precedence first (see
  /// discoverPolicySources); plugins load as the user layer.
  std::vector<std::filesystem::path> user_plugin_dirs;
  /// Directories at or above the cwd holding guard plugin directories,
  /// outermost first; their plugins load (as the project layer) only when the
  /// user's trust list names the directory.
  std::vector<std::filesystem::path> plugin_project_roots;
  std::filesystem::path managed_dir;  ///< managed layer directory
  bool check_examples = true;         ///< false: leave examples to the caller (`toolguard test`)
  /// Read the built-in profiles' rule examples too (`toolguard test
  /// --builtin`); they are not checked at load, so by default they are left out.
  bool builtin_examples = false;
  /// Where the YAML trees of the user's own policy files are kept between
  /// processes (`toolguard check` uses HOME/cache/policy-trees); empty: every
  /// file is parsed. Managed files, and files owned by anyone else, are
  /// always parsed; an entry is used only for the file's exact current text.
  std::filesystem::path tree_cache_dir;
  /// Further directories of toolguard's own that agents may never write
  /// (`check --home DIR`), besides the user, managed and home directories.
  std::vector<std::filesystem::path> guarded_dirs;
};

/// The usual sources for a workspace: user dir from $TOOLGUARD_CONFIG_DIR, else
/// $XDG_CONFIG_HOME/toolguard, else ~/.config/toolguard; managed dir from
/// $TOOLGUARD_MANAGED_DIR, else /etc/toolguard; project roots: every directory
/// at or above `cwd` holding a `.toolguard/` directory that belongs to the user
/// (or root) and is not writable by others. The home directory itself is
/// skipped: ~/.toolguard is the approval store. Guard plugins: `guards/` in
/// toolguard's home (~/.toolguard), ~/.agents, ~/.claude and ~/.bitcode, then
/// the same four inside each directory at or above `cwd` (not the home
/// directory) that belongs to the user.
PolicySources discoverPolicySources(const std::filesystem::path& cwd);

/// Loads and merges every layer, checks every rule example (unless told not to). Throws PolicyError
/// with file, line and column for every problem found.
Policy loadPolicy(const PolicySources& sources);

/// Parses one policy text into `policy` as the given layer (no example check).
/// `name` is used in error locations. `trusted` matters for the project layer.
void mergePolicyText(Policy& policy, std::string_view text, const std::string& name,
                     PolicyLayer layer, bool trusted = true);

/// Policy files larger than this are refused (a load error).
inline constexpr size_t kMaxPolicyFileBytes = 1 << 20;

/// Reads one policy file and merges it as the given layer (no example check).
/// The file must be a regular file (not a FIFO or a device) of at most
/// kMaxPolicyFileBytes.
void mergePolicyFile(Policy& policy, const std::filesystem::path& file, PolicyLayer layer,
                     bool trusted = true);

/// The workspaces the user trusts to loosen its policy (`trusted_projects` in
/// the user's policy files), normalized.
std::vector<std::string> trustedProjects(const Policy& policy);

}  // namespace toolguard
