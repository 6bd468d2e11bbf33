// Codex prefix patterns: Codex's own matching (for the examples a rules file
// carries) and toolguard's reading of them as shell matchers.
#include "foreign_policy/codex_pattern.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "toolguard/paths.hpp"

namespace toolguard::detail {
namespace {

// Rust's Path::file_name on an absolute path: the last component, ignoring
// trailing slashes and `.`; nullopt for `/` or a path ending in `..`.
std::optional<std::string> fileName(std::string path) {
  for (;;) {
    if (path.size() > 1 && path.back() == '/') {
      path.pop_back();
    } else if (path.size() > 2 && path.ends_with("/.")) {
      path.resize(path.size() - 2);
    } else {
      break;
    }
  }
  const std::string name = path.substr(path.rfind('/') + 1);
  if (name.empty() || name == "..") return std::nullopt;
  return name;
}

// Codex's prefix test with a given first word.
bool prefixMatches(const CodexPattern& pattern, const std::string& first,
                   const std::vector<std::string>& argv) {
  if (argv.size() < pattern.tokens.size()) return false;
  for (size_t i = 0; i < pattern.tokens.size(); ++i) {
    const std::string& word = i == 0 ? first : argv[i];
    const auto& alts = pattern.tokens[i];
    if (std::find(alts.begin(), alts.end(), word) == alts.end()) return false;
  }
  return true;
}

// `~/x` as the home directory's x.
std::string expandHome(const std::string& path) {
  return path.starts_with("~/") ? homeDirectory() + path.substr(1) : path;
}

// The text as a glob that matches it and never less: `*`, `?` and blanks
// (which toolguard's token patterns cannot hold) become `?`.
std::string globSafe(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == '*' || c == '?' || std::isspace(static_cast<unsigned char>(c))) c = '?';
  }
  return out;
}

// Alternatives as one RE2 group of literals.
std::string group(const std::vector<std::string>& alts) {
  if (alts.size() == 1) return RE2::QuoteMeta(alts.front());
  std::string out = "(?:";
  for (size_t i = 0; i < alts.size(); ++i) {
    if (i > 0) out += '|';
    out += RE2::QuoteMeta(alts[i]);
  }
  return out + ")";
}

// The regex of the words after the first: ` a (?:b|c)` and any further words.
std::string restRegex(const std::vector<std::vector<std::string>>& rest) {
  std::string out;
  for (const auto& alts : rest) out.append(" ").append(group(alts));
  return out + "(?: .*)?";
}

// Every combination of one alternative per position, while there are at most `limit`.
std::optional<std::vector<std::vector<std::string>>> combinations(
    const std::vector<std::vector<std::string>>& positions, size_t limit) {
  std::vector<std::vector<std::string>> out{{}};
  for (const auto& alts : positions) {
    if (out.size() * alts.size() > limit) return std::nullopt;
    std::vector<std::vector<std::string>> grown;
    for (const auto& prefix : out) {
      for (const std::string& alt : alts) {
        grown.push_back(prefix);
        grown.back().push_back(alt);
      }
    }
    out = std::move(grown);
  }
  return out;
}

// Appends unless already there (patterns stay in order, without repeats).
void addOnce(std::vector<std::string>& list, std::string item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(std::move(item));
}

// Token patterns for an allow rule: `name a b *` per combination, or with
// `?*` (any non-empty, literal word) where a position has alternatives.
std::vector<std::string> allowTokens(const std::vector<std::string>& names,
                                     const std::vector<std::vector<std::string>>& rest) {
  std::vector<std::string> out;
  const auto combos = combinations(rest, kMaxTokenPatterns);
  for (const std::string& name : names) {
    if (combos && combos->size() * names.size() <= kMaxTokenPatterns) {
      for (const auto& combo : *combos) {
        std::string p = globSafe(name);
        for (const std::string& word : combo) p.append(" ").append(globSafe(word));
        addOnce(out, p + " *");
      }
    } else {
      std::string p = globSafe(name);
      for (const auto& alts : rest)
        p.append(" ").append(alts.size() == 1 ? globSafe(alts[0]) : "?*");
      addOnce(out, p + " *");
    }
  }
  return out;
}

}  // namespace

// Alternatives as [a|b], as Codex renders them.
std::string CodexPattern::text() const {
  std::string out;
  for (const auto& alts : tokens) {
    if (!out.empty()) out += ' ';
    if (alts.size() == 1) {
      out += alts.front();
      continue;
    }
    out += '[';
    for (size_t i = 0; i < alts.size(); ++i) out.append(i > 0 ? "|" : "").append(alts[i]);
    out += ']';
  }
  return out;
}

// The first alternative of every position.
std::vector<std::string> CodexPattern::firstPrefix() const {
  std::vector<std::string> out;
  for (const auto& alts : tokens) out.push_back(alts.front());
  return out;
}

// Exact first word, else the base name of an absolute path (host_executable permitting).
bool codexMatches(const CodexPattern& pattern, const std::vector<std::string>& argv,
                  const CodexHostExecutables& hosts) {
  if (argv.empty() || pattern.tokens.empty()) return false;
  if (prefixMatches(pattern, argv.front(), argv)) return true;
  if (!argv.front().starts_with('/')) return false;
  const std::optional<std::string> base = fileName(argv.front());
  if (!base) return false;
  if (auto listed = hosts.find(*base); listed != hosts.end()) {
    const auto& paths = listed->second;
    if (std::none_of(paths.begin(), paths.end(),
                     [&](const std::string& p) { return expandHome(p) == argv.front(); })) {
      return false;
    }
  }
  return prefixMatches(pattern, *base, argv);
}

// Token patterns for the engine's word checks, a regex for exactness.
std::optional<ShellMatcher> allowMatcher(const CodexPattern& pattern, const SourceLocation& where,
                                         std::vector<std::string>& dropped) {
  std::vector<std::string> firsts;  // as written, for the regex
  std::vector<std::string> names;   // base names, for the token patterns
  for (const std::string& first : pattern.tokens.front()) {
    const std::string name = first.substr(first.rfind('/') + 1);
    if (name.empty()) {
      dropped.push_back("the command name '" + first + "'");
      continue;
    }
    firsts.push_back(first);
    addOnce(names, name);
  }
  std::vector<std::vector<std::string>> rest;
  for (size_t i = 1; i < pattern.tokens.size(); ++i) {
    std::vector<std::string> alts;
    for (const std::string& alt : pattern.tokens[i]) {
      if (alt.empty()) {
        dropped.push_back("the empty word '' at position " + std::to_string(i + 1));
      } else {
        alts.push_back(alt);
      }
    }
    rest.push_back(std::move(alts));
  }
  if (firsts.empty() ||
      std::any_of(rest.begin(), rest.end(), [](const auto& alts) { return alts.empty(); })) {
    return std::nullopt;
  }
  ShellMatcher m;
  m.where = where;
  m.tokens = allowTokens(names, rest);
  m.regex.push_back(group(firsts) + restRegex(rest));
  return m;
}

// One regex over the words; a bare name also matches after any absolute directory.
ShellMatcher restrictingMatcher(const CodexPattern& pattern, const SourceLocation& where) {
  std::vector<std::string> firsts;
  for (const std::string& first : pattern.tokens.front()) {
    // Codex resolves an absolute path to its base name; any path may precede it here.
    firsts.push_back(first.find('/') == std::string::npos ? "(?:/.*/)?" + RE2::QuoteMeta(first)
                                                          : RE2::QuoteMeta(first));
  }
  std::string head = firsts.size() == 1 ? firsts.front() : "(?:";
  if (firsts.size() > 1) {
    for (size_t i = 0; i < firsts.size(); ++i) head.append(i > 0 ? "|" : "").append(firsts[i]);
    head += ')';
  }
  const std::vector<std::vector<std::string>> rest(pattern.tokens.begin() + 1,
                                                   pattern.tokens.end());
  ShellMatcher m;
  m.where = where;
  m.regex.push_back(head + restRegex(rest));
  return m;
}

}  // namespace toolguard::detail
