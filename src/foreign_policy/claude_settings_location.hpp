#pragma once
// Internal: what a Claude Code settings file's path says about its rules:
// which settings source it is, and where its `/path` patterns are anchored.

#include <string>
#include <vector>

namespace toolguard::detail {

/// A settings file's source and the anchor of its `/path` patterns.
struct ClaudeSettingsLocation {
  /// "user" (~/.claude/settings.json), "project" (.claude/settings.json),
  /// "local" (.claude/settings.local.json), "managed" (managed-settings.json)
  /// or "settings" (any other file, as given with --settings).
  std::string scope;
  /// Glob prefixes for `/path`: `~/.claude` for user settings, the directory
  /// holding `.claude/` for project and local settings, else the file's own
  /// directory. An absolute directory is escaped, and given both as written
  /// and with its symlinks resolved when those differ.
  std::vector<std::string> anchors;
};

/// Reads the location from the settings file's path (it need not exist).
ClaudeSettingsLocation claudeSettingsLocation(const std::string& file);

}  // namespace toolguard::detail
