// Claude Code `Read(...)` / `Edit(...)` path patterns as toolguard path globs.
//
// Claude Code reads them with gitignore syntax and four anchors: `//path` is
// absolute, `~/path` is in the home directory, `/path` is relative to the
// settings source, `path` and `./path` are relative to the current directory.
// A bare name matches at any depth below the current directory; a single
// directory segment (`src/**`) does so in deny and ask rules only.
#include "foreign_policy/claude_path_rules.hpp"

#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// True when `text` has a `..` path component.
bool hasParentStep(std::string_view text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    if (text.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

// True for `dir/**` with one directory segment.
bool singleDirectorySegment(const std::string& rel) {
  return rel.size() > 3 && rel.ends_with("/**") && rel.find('/') == rel.size() - 3;
}

// Globs for a pattern relative to the current directory (`./` already removed).
std::vector<std::string> relativeGlobs(std::string rel, bool dot_slash,
                                       const ClaudeRuleContext& rule,
                                       std::vector<std::string>& notes) {
  if (rel.empty() || rel == ".") return {"./**"};
  if (rel.ends_with('/')) rel += "**";  // a directory: everything below it
  if (rel.find('/') == std::string::npos) {
    if (!dot_slash) return {"./**/" + rel};
    if (rule.restricts()) {
      notes.push_back("Claude Code reads `./" + rel + "` like `" + rel +
                      "`: toolguard matches it at any depth below the current directory, the "
                      "broader of the two readings its documentation allows");
      return {"./**/" + rel};
    }
    notes.push_back("toolguard allows `./" + rel +
                    "` only in the current directory, the narrower of the two readings Claude "
                    "Code's documentation allows (the other reads it like `" +
                    rel + "`, at any depth)");
    return {"./" + rel};
  }
  if (singleDirectorySegment(rel) && rule.restricts()) return {"./**/" + rel};
  return {"./" + rel};
}

// A relative pattern that starts above the current directory (`../x`).
ClaudeMapping aboveCwd(const std::string& tail, std::vector<std::string> tools,
                       const ClaudeRuleContext& rule) {
  if (!rule.restricts()) {
    return leftOut(
        "toolguard cannot anchor a path pattern above the current directory (`../`): the "
        "allow rule is left out");
  }
  if (tail.empty() || hasParentStep(tail)) {
    throw PolicyError(rule.where, "'" + rule.text + "': unsupported `..` in a path pattern");
  }
  ClaudeMapping m = wholeTools(std::move(tools));
  m.rule->path.emplace();
  m.rule->path->glob = {tail};
  m.rule->path->where = rule.where;
  m.notes.push_back(
      "toolguard cannot anchor a path pattern above the current directory (`../`): "
      "it matches `" +
      tail + "` at any depth anywhere, which covers the path meant");
  return m;
}

}  // namespace

const std::vector<std::string>& claudeReadTools() {
  static const std::vector<std::string> tools = {"Read", "Grep", "Glob", "LS"};
  return tools;
}

const std::vector<std::string>& claudeEditTools() {
  static const std::vector<std::string> tools = {"Edit", "Write", "MultiEdit", "NotebookEdit"};
  return tools;
}

std::string escapeGlob(const std::string& directory) {
  std::string out;
  for (char c : directory) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

ClaudeMapping mapPathPattern(const std::string& pattern, std::vector<std::string> tools,
                             const ClaudeRuleContext& rule) {
  if (pattern.starts_with('!')) {
    if (!rule.restricts()) {
      return leftOut(
          "Claude Code documents `!` patterns for deny and ask rules only: this allow "
          "rule is left out");
    }
    return leftOut(
        "a `!` pattern carves paths out of the rules listed before it in Claude Code; toolguard "
        "cannot narrow another rule, so those rules keep their whole reach (the stricter "
        "reading) and this one is left out");
  }
  std::vector<std::string> notes;
  std::vector<std::string> globs;
  if (pattern.starts_with("//")) {
    globs = {pattern.substr(1)};
  } else if (pattern == "~" || pattern.starts_with("~/")) {
    globs = {pattern};
  } else if (pattern.starts_with('/')) {
    for (const std::string& anchor : rule.anchors) globs.push_back(anchor + pattern);
  } else {
    std::string rel = pattern;
    bool dot_slash = false;
    while (rel.starts_with("./")) {
      rel.erase(0, 2);
      dot_slash = true;
    }
    if (rel.starts_with("../")) {
      while (rel.starts_with("../")) rel.erase(0, 3);
      return aboveCwd(rel, std::move(tools), rule);
    }
    globs = relativeGlobs(rel, dot_slash, rule, notes);
  }
  if (hasParentStep(pattern)) {
    throw PolicyError(rule.where, "'" + rule.text + "': unsupported `..` in a path pattern");
  }
  ClaudeMapping m = wholeTools(std::move(tools));
  m.rule->path.emplace();
  m.rule->path->glob = std::move(globs);
  m.rule->path->where = rule.where;
  m.notes = std::move(notes);
  return m;
}

}  // namespace toolguard::detail
