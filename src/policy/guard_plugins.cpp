// Guard plugin files: the Go coding agent's ordered pattern lists, read as
// first_match rules.
#include "guard_plugins.hpp"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "bounded_file.hpp"
#include "toolguard/policy_error.hpp"
#include "yaml_json.hpp"

namespace toolguard::detail {
namespace fs = std::filesystem;

std::vector<fs::path> guardPluginDirs(const fs::path& base) {
  std::vector<fs::path> dirs;
  for (const char* name : {".toolguard", ".agents", ".claude", ".bitcode"}) {
    dirs.push_back(base / name / "guards");
  }
  return dirs;
}

std::vector<fs::path> guardPluginFiles(const fs::path& dir) {
  return configFilesIn(dir, {".md", ".yaml", ".yml"});
}

namespace {

// The YAML parts of a plugin file, padded with empty lines so that a node's
// line is its line in the file.
struct PluginYaml {
  std::string front;  ///< the whole file, or a Markdown file's front matter
  std::string body;   ///< a Markdown file's body (patterns may be there)
};

// Splits a Markdown plugin into its front matter and body; a YAML file is all front.
PluginYaml pluginYaml(std::string_view text, const std::string& file) {
  if (!file.ends_with(".md")) return PluginYaml{std::string(text), ""};
  const size_t first_end = text.find('\n');
  std::string_view first = text.substr(0, first_end);
  if (first.ends_with('\r')) first.remove_suffix(1);
  if (first != "---" || first_end == std::string_view::npos) {
    throw PolicyError(SourceLocation{file, 1, 1},
                      "a Markdown guard plugin must start with YAML front matter (a line ---)");
  }
  size_t pos = first_end + 1;
  int line = 2;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view current = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    if (current.ends_with('\r')) current.remove_suffix(1);
    if (current == "---") {
      PluginYaml parts;
      parts.front = "\n" + std::string(text.substr(first_end + 1, pos - first_end - 1));
      if (end != std::string_view::npos) {
        parts.body =
            std::string(static_cast<size_t>(line), '\n') + std::string(text.substr(end + 1));
      }
      return parts;
    }
    if (end == std::string_view::npos) break;
    pos = end + 1;
    ++line;
  }
  throw PolicyError(SourceLocation{file, 1, 1}, "the front matter has no closing line ---");
}

YAML::Node loadYaml(const std::string& text, const std::string& file) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw PolicyError(SourceLocation{file, e.mark.is_null() ? 0 : e.mark.line + 1,
                                     e.mark.is_null() ? 0 : e.mark.column + 1},
                      "invalid YAML: " + e.msg);
  }
}

// Why a glob on a base name is malformed (as Go's filepath.Match would
// refuse it, or because a base name has no '/'); empty when it is fine.
std::string globProblem(const std::string& glob) {
  if (glob.find('/') != std::string::npos) return "a base-name glob cannot contain '/'";
  for (size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      if (++i == glob.size()) return "the glob ends with a lone backslash";
    } else if (glob[i] == '[') {
      size_t j = i + 1;
      if (j < glob.size() && (glob[j] == '^' || glob[j] == '!')) ++j;
      if (j < glob.size() && glob[j] == ']') return "empty character class";
      while (j < glob.size() && glob[j] != ']') j += glob[j] == '\\' ? 2 : 1;
      if (j >= glob.size()) return "unclosed character class '['";
      i = j;
    }
  }
  return "";
}

// An unanchored search for `regex`, as the Go agent matches it.
std::string searchRegex(const std::string& regex) {
  return ".*(?:" + regex + ").*";
}

class PluginParser {
 public:
  PluginParser(std::string file, PolicyLayer layer, const ToolCatalog& catalog)
      : file_(std::move(file)), layer_(layer), catalog_(catalog) {}

  GuardPlugin parse(std::string_view source) {
    PluginYaml parts = pluginYaml(source, file_);
    YAML::Node root = loadYaml(parts.front, file_);
    if (!root.IsMap()) {
      throw PolicyError(SourceLocation{file_, 1, 1},
                        "a guard plugin is a mapping with id, tool and patterns");
    }
    GuardPlugin plugin;
    plugin.id = fs::path(file_).stem().string();
    RuleSpec& rule = plugin.rule;
    rule.header.source = SourceLocation{file_, 1, 1};
    rule.header.layer = layer_;
    std::optional<YAML::Node> patterns;
    for (const auto& entry : root) {
      const std::string key = entry.first.Scalar();
      const YAML::Node& value = entry.second;
      if (key == "id") {
        if (auto s = text(value, "id"); s && !s->empty()) plugin.id = *s;
      } else if (key == "tool") {
        if (auto s = text(value, "tool")) rule.header.target.tools = toolNames(*s);
      } else if (key == "patterns") {
        patterns = value;
      } else if (key != "description" && key != "name") {
        error(entry.first, "unknown key '" + key + "' (expected id, tool, patterns, description)");
      }
    }
    if (!patterns && !parts.body.empty()) {
      YAML::Node body = loadBody(parts.body);
      if (body.IsMap() && body["patterns"]) patterns = body["patterns"];
    }
    if (!patterns) {
      error(root, "a guard plugin needs a patterns list");
    } else {
      parsePatterns(*patterns, plugin.id, rule);
    }
    rule.header.id = "plugin:" + plugin.id;
    if (!errors_.empty()) throw PolicyError(std::move(errors_));
    return plugin;
  }

 private:
  // A Markdown body that is prose, not YAML, simply has no patterns.
  YAML::Node loadBody(const std::string& body) {
    try {
      return YAML::Load(body);
    } catch (const YAML::Exception&) {
      return YAML::Node();
    }
  }

  void error(const YAML::Node& node, std::string message) {
    errors_.push_back({locationOf(node, file_), std::move(message)});
  }

  std::optional<std::string> text(const YAML::Node& node, const std::string& what) {
    if (!node.IsScalar()) {
      error(node, what + ": expected a string");
      return std::nullopt;
    }
    return node.Scalar();
  }

  // `tool: Bash, write` as the names the catalog uses (the Go agent compares
  // names without case), plus each name as written.
  std::vector<std::string> toolNames(const std::string& list) {
    std::vector<std::string> names;
    auto add = [&names](const std::string& name) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    };
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t") + 1);
      if (!name.empty()) {
        add(name);
        for (const ToolInfo* tool : catalog_.all()) {
          if (equalIgnoringCase(tool->name, name)) add(tool->name);
        }
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return names;
  }

  static bool equalIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) ==
                    std::tolower(static_cast<unsigned char>(y));
           });
  }

  void parsePatterns(const YAML::Node& node, const std::string& id, RuleSpec& rule) {
    if (!node.IsSequence() || node.size() == 0) {
      error(node, "patterns: expected a non-empty list");
      return;
    }
    for (const YAML::Node& item : node) parsePattern(item, id, rule);
  }

  // One pattern becomes up to three cases, in order: its regex on each simple
  // command, on the whole command text (restricting verdicts only: an allow
  // for the whole text would allow every command in it), its glob on the base
  // name of a file tool's paths.
  void parsePattern(const YAML::Node& item, const std::string& id, RuleSpec& rule) {
    if (!item.IsMap()) {
      error(item, "pattern: expected a mapping with match or file_match, verdict, reason");
      return;
    }
    std::optional<std::string> match;
    std::optional<std::string> file_match;
    std::optional<Verdict> verdict;
    std::string reason;
    for (const auto& entry : item) {
      const std::string key = entry.first.Scalar();
      const YAML::Node& value = entry.second;
      if (key == "match") {
        match = text(value, "match");
        if (match && !validRegex(*match, value)) match.reset();
      } else if (key == "file_match") {
        file_match = text(value, "file_match");
        if (file_match) {
          if (std::string problem = globProblem(*file_match); !problem.empty()) {
            error(value, "file_match '" + *file_match + "': " + problem);
          }
        }
      } else if (key == "verdict") {
        verdict = patternVerdict(value);
      } else if (key == "reason") {
        if (auto s = text(value, "reason")) reason = *s;
      } else {
        error(entry.first, "unknown key '" + key +
                               "' in a pattern (expected match, file_match, verdict, reason)");
      }
    }
    if (!match && !file_match) {
      if (!item["match"] && !item["file_match"]) error(item, "pattern: needs match or file_match");
      return;
    }
    if (!verdict) {
      if (!item["verdict"]) error(item, "pattern: verdict is required");
      return;
    }
    if (reason.empty()) {
      reason = "guard plugin " + id + ": " +
               (match ? "command matches " + *match : "file matches " + file_match.value_or(""));
    }
    const SourceLocation at = locationOf(item, file_);
    auto newCase = [&](std::vector<ToolKind> kinds) {
      RuleSpec c;
      c.header.source = at;
      c.header.layer = layer_;
      c.header.target.tools = rule.header.target.tools;
      c.header.target.kinds = std::move(kinds);
      c.verdict = *verdict;
      c.reason = reason;
      return c;
    };
    if (match) {
      const SourceLocation match_at = locationOf(item["match"], file_);
      RuleSpec per_command = newCase({ToolKind::Shell});
      per_command.shell = ShellMatcher{{}, {searchRegex(*match)}, {}, match_at};
      rule.first_match.push_back(std::move(per_command));
      if (*verdict != Verdict::Allow) {
        RuleSpec whole = newCase({ToolKind::Shell});
        ValueMatcher text_matcher = ValueMatcher::Regex(searchRegex(*match));
        text_matcher.where = match_at;
        whole.command = std::move(text_matcher);
        rule.first_match.push_back(std::move(whole));
      }
    }
    if (file_match) {
      RuleSpec files = newCase({ToolKind::FileRead, ToolKind::FileWrite});
      PathMatcher paths;
      paths.glob = {*file_match};
      paths.where = locationOf(item["file_match"], file_);
      files.path = std::move(paths);
      rule.first_match.push_back(std::move(files));
    }
  }

  // Reports a regex RE2 rejects, in the user's words (not the search form).
  bool validRegex(const std::string& regex, const YAML::Node& node) {
    RE2::Options options;
    options.set_log_errors(false);
    const RE2 re(regex, options);
    if (re.ok()) return true;
    error(node, "match: invalid regex '" + regex + "': " + re.error());
    return false;
  }

  std::optional<Verdict> patternVerdict(const YAML::Node& node) {
    auto s = text(node, "verdict");
    if (!s) return std::nullopt;
    if (*s == "allow") return Verdict::Allow;
    if (*s == "ask") return Verdict::Ask;
    if (*s == "deny") return Verdict::Deny;
    error(node, "unknown verdict '" + *s + "' (expected allow, ask, deny)");
    return std::nullopt;
  }

  std::string file_;
  PolicyLayer layer_;
  const ToolCatalog& catalog_;
  std::vector<PolicyDiagnostic> errors_;
};

}  // namespace

bool isGuardPluginText(std::string_view text, const std::string& file) {
  if (file.ends_with(".md")) return true;
  // Most policy files never mention patterns: spare them a second YAML parse.
  if (text.find("patterns") == std::string_view::npos) return false;
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return root.IsMap() && root["patterns"] && !root["rules"];
  } catch (const YAML::Exception&) {
    return false;  // the policy parser reports the error
  }
}

GuardPlugin parseGuardPlugin(std::string_view text, const std::string& file, PolicyLayer layer,
                             const ToolCatalog& catalog) {
  return PluginParser(file, layer, catalog).parse(text);
}

}  // namespace toolguard::detail
