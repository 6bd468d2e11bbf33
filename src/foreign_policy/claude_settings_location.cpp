// The settings source and `/path` anchor of a Claude Code settings file.
//
// Claude Code anchors `/path` at the settings source: the primary working
// directory for project and local settings (the directory holding `.claude/`,
// from which Claude Code reads them), `~/.claude` for user settings, and the
// file's directory for a file passed with --settings.
#include "foreign_policy/claude_settings_location.hpp"

#include <filesystem>
#include <system_error>

#include "foreign_policy/claude_path_rules.hpp"
#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

namespace fs = std::filesystem;

// The directory as written (absolute, normalized) and with symlinks resolved.
std::vector<std::string> directoryForms(const fs::path& dir) {
  std::error_code ec;
  fs::path lexical = fs::absolute(dir, ec).lexically_normal();
  if (ec) lexical = dir.lexically_normal();
  std::string written = lexical.string();
  while (written.size() > 1 && written.back() == '/') written.pop_back();
  std::vector<std::string> forms = {escapeGlob(written)};
  fs::path resolved = fs::weakly_canonical(lexical, ec);
  if (!ec) {
    std::string real = resolved.string();
    while (real.size() > 1 && real.back() == '/') real.pop_back();
    if (real != written) forms.push_back(escapeGlob(real));
  }
  for (std::string& form : forms) {
    if (form == "/") form.clear();  // "/" + "/src" must not become "//src"
  }
  return forms;
}

}  // namespace

ClaudeSettingsLocation claudeSettingsLocation(const std::string& file) {
  std::error_code ec;
  fs::path path = fs::absolute(fs::path(file), ec).lexically_normal();
  if (ec) path = fs::path(file).lexically_normal();
  const std::string name = path.filename().string();
  const fs::path dir = path.parent_path();
  ClaudeSettingsLocation out;
  if (dir.filename() == ".claude" && (name == "settings.json" || name == "settings.local.json")) {
    const fs::path root = dir.parent_path();
    const std::string home = normalizePath(homeDirectory(), "/", "/");
    if (name == "settings.json" && root.lexically_normal().string() == home) {
      out.scope = "user";
      out.anchors = {"~/.claude"};
      return out;
    }
    out.scope = name == "settings.json" ? "project" : "local";
    out.anchors = directoryForms(root);
    return out;
  }
  out.scope = name == "managed-settings.json" ? "managed" : "settings";
  out.anchors = directoryForms(dir);
  return out;
}

}  // namespace toolguard::detail
