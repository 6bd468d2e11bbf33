#pragma once
// Internal: guard plugin files (the Go coding agent's format): a YAML file, or
// Markdown with YAML front matter, holding an ordered list of patterns.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "policy_document.hpp"

namespace toolguard::detail {

/// The directories under a base (the home directory or a project) that hold
/// guard plugins, lowest precedence first: .toolguard, .agents, .claude, .bitcode
/// (each `<base>/<name>/guards`).
std::vector<std::filesystem::path> guardPluginDirs(const std::filesystem::path& base);

/// The plugin files of a directory (*.md, *.yaml, *.yml), sorted by name;
/// none when it does not exist.
std::vector<std::filesystem::path> guardPluginFiles(const std::filesystem::path& dir);

/// True when a file given as a policy is a guard plugin: Markdown, or YAML
/// with a top-level `patterns` list and no `rules`.
bool isGuardPluginText(std::string_view text, const std::string& file);

/// One plugin: its id (`id:`, else the file name without extension) and the
/// rule it becomes.
struct GuardPlugin {
  std::string id;
  RuleSpec rule;  ///< one first_match rule: the first pattern that matches decides
};

/// Parses one plugin file's text. `catalog` spells tool names the way the
/// catalog does (`bash` is `Bash`). Throws PolicyError with file, line and
/// column for an unknown verdict, a bad regex or glob, or an unknown key.
GuardPlugin parseGuardPlugin(std::string_view text, const std::string& file, PolicyLayer layer,
                             const ToolCatalog& catalog);

}  // namespace toolguard::detail
