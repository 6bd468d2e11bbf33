// Policy files: argument value matchers, shell matchers and path matchers.
#include "policy_file_parser.hpp"

namespace toolguard::detail {

ValueMatcher PolicyFileParser::valueMatcher(const DocNode& node, const std::string& what) {
  ValueMatcher m;
  m.where = where(node);
  if (node.IsSequence()) {
    m.one_of = docToJson(node).get<std::vector<nlohmann::json>>();  // shorthand: any of
    return m;
  }
  if (!node.IsMap()) {
    m.equals = docToJson(node);  // shorthand: a plain value means equals
    return m;
  }
  for (const auto& [k, v] : entries(node)) {
    const std::string_view key = k.Scalar();
    if (key == "equals") {
      m.equals = docToJson(v);
    } else if (key == "one_of") {
      nlohmann::json values = docToJson(v);
      if (!values.is_array() || values.empty()) {
        error(v, what + ".one_of: expected a non-empty list");
      } else {
        m.one_of = values.get<std::vector<nlohmann::json>>();
      }
    } else if (key == "glob") {
      m.glob = strings(v, what + ".glob");
    } else if (key == "regex") {
      m.regex = strings(v, what + ".regex");
    } else if (key == "web_url") {
      const std::string kind = v.IsScalar() ? v.Scalar() : "";
      if (kind == "public") {
        m.web_url = WebUrlKind::Public;
      } else if (kind == "loopback") {
        m.web_url = WebUrlKind::Loopback;
      } else {
        error(v, what + ".web_url: expected public or loopback");
      }
    } else {
      error(k, unknownNameMessage(what + ": unknown matcher", key, "",
                                  "equals, one_of, glob, regex, web_url"));
    }
  }
  if (!m.equals && m.one_of.empty() && m.glob.empty() && m.regex.empty() && !m.web_url) {
    error(node, what + ": expected equals, one_of, glob, regex or web_url");
  }
  return m;
}

std::vector<std::pair<std::string, ValueMatcher>> PolicyFileParser::namedMatchers(
    const DocNode& node, const std::string& what) {
  std::vector<std::pair<std::string, ValueMatcher>> out;
  if (!node.IsMap()) {
    error(node, what + ": expected a mapping from name to matcher");
    return out;
  }
  for (const auto& [k, v] : entries(node)) {
    out.emplace_back(k.Scalar(), valueMatcher(v, what + "." + k.Scalar()));
  }
  return out;
}

// shell: "git push *" | [patterns] | {command: ..., regex: ..., writes: ...}
ShellMatcher PolicyFileParser::shellMatcher(const DocNode& node) {
  ShellMatcher m;
  m.where = where(node);
  if (node.IsScalar() || node.IsSequence()) {
    m.tokens = strings(node, "shell");
    return m;
  }
  if (!node.IsMap()) {
    error(node, "shell: expected a token pattern, a list of them, or a mapping");
    return m;
  }
  for (const auto& [k, v] : entries(node)) {
    const std::string_view key = k.Scalar();
    if (key == "command") {
      m.tokens = strings(v, "shell.command");
    } else if (key == "regex") {
      m.regex = strings(v, "shell.regex");
    } else if (key == "writes") {
      m.writes = strings(v, "shell.writes");
      checkPathGlobs(v, m.writes);
    } else {
      error(k, unknownNameMessage("shell: unknown matcher", key, "", "command, regex, writes"));
    }
  }
  return m;
}

// content: "term" | [terms] | {contains: ..., regex: ...}
ContentMatcher PolicyFileParser::contentMatcher(const DocNode& node) {
  ContentMatcher m;
  m.where = where(node);
  if (node.IsScalar() || node.IsSequence()) {
    m.contains = strings(node, "content");
  } else if (!node.IsMap()) {
    error(node, "content: expected a term, a list of terms, or a mapping");
    return m;
  } else {
    for (const auto& [k, v] : entries(node)) {
      const std::string_view key = k.Scalar();
      if (key == "contains") {
        m.contains = strings(v, "content.contains");
      } else if (key == "regex") {
        m.regex = strings(v, "content.regex");
      } else {
        error(k, unknownNameMessage("content: unknown matcher", key, "", "contains, regex"));
      }
    }
  }
  if (m.contains.empty() && m.regex.empty()) error(node, "content: no term and no pattern");
  for (const std::string& term : m.contains) {
    if (term.empty()) error(node, "content: an empty term would match every call");
  }
  return m;
}

// A path glob that can never match a path as toolguard compares them
// (absolute, with `.` and `..` resolved) is an error, not a silent gap.
void PolicyFileParser::checkPathGlobs(const DocNode& node, const std::vector<std::string>& globs) {
  if (checks_ == TreeChecks::CheckedAtBuild) return;
  for (const std::string& g : globs) {
    if (Expected<void> glob = detail::checkPathGlob(g); !glob) error(node, glob.error());
  }
}

PathMatcher PolicyFileParser::pathMatcher(const DocNode& node) {
  PathMatcher m;
  m.where = where(node);
  if (node.IsScalar() || node.IsSequence()) {
    m.glob = strings(node, "path");  // shorthand: a glob or a list of globs
    checkPathGlobs(node, m.glob);
    return m;
  }
  if (!node.IsMap()) {
    error(node, "path: expected a glob or a mapping");
    return m;
  }
  for (const auto& [k, v] : entries(node)) {
    const std::string_view key = k.Scalar();
    if (key == "glob") {
      m.glob = strings(v, "path.glob");
      checkPathGlobs(v, m.glob);
    } else if (key == "regex") {
      m.regex = strings(v, "path.regex");
    } else if (key == "outside_workspace") {
      m.outside_workspace = boolean(v, "path.outside_workspace");
    } else if (key == "except") {
      m.except = strings(v, "path.except");
      checkPathGlobs(v, m.except);
    } else {
      error(k, unknownNameMessage("path: unknown matcher", key, "",
                                  "glob, regex, outside_workspace, except"));
    }
  }
  if (m.glob.empty() && m.regex.empty() && !m.outside_workspace) {
    error(node, "path: expected glob, regex or outside_workspace");
  }
  return m;
}

}  // namespace toolguard::detail
