// Glob to RE2 translation.
#include "glob.hpp"

#include <re2/re2.h>

#include <algorithm>

#include "toolguard/paths.hpp"
#include "unicode_text.hpp"

namespace toolguard::detail {
namespace {

// Appends a bracket class starting at glob[i] == '['; returns the index after
// it, or npos when the class is not closed (then '[' is literal). POSIX
// classes such as [:alpha:] inside it are kept.
size_t appendClass(std::string_view glob, size_t i, bool in_path, std::string& out) {
  size_t j = i + 1;
  if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
  if (j < glob.size() && glob[j] == ']') ++j;
  while (j < glob.size() && glob[j] != ']') {
    if (glob[j] == '[' && j + 1 < glob.size() && glob[j + 1] == ':') {
      size_t close = glob.find(":]", j + 2);
      if (close != std::string_view::npos) {
        j = close + 2;
        continue;
      }
    }
    ++j;
  }
  if (j >= glob.size()) return std::string_view::npos;
  std::string_view body = glob.substr(i + 1, j - i - 1);
  out += '[';
  size_t k = 0;
  if (!body.empty() && (body[0] == '!' || body[0] == '^')) {
    out += '^';
    if (in_path) out += '/';
    k = 1;
  }
  while (k < body.size()) {
    if (body[k] == '[' && k + 1 < body.size() && body[k + 1] == ':') {
      size_t close = body.find(":]", k + 2);
      if (close != std::string_view::npos) {
        out.append(body.substr(k, close + 2 - k));
        k = close + 2;
        continue;
      }
    }
    char c = body[k++];
    if (c == '\\' || c == '[' || c == ']' || c == '^') out += '\\';
    out += c;
  }
  out += ']';
  return j + 1;
}

std::string translate(std::string_view glob, bool in_path) {
  std::string out;
  for (size_t i = 0; i < glob.size();) {
    char c = glob[i];
    if (c == '*') {
      if (in_path && i + 1 < glob.size() && glob[i + 1] == '*') {
        bool slash_before = i == 0 || glob[i - 1] == '/';
        bool slash_after = i + 2 < glob.size() && glob[i + 2] == '/';
        if (slash_before && slash_after) {
          out += "(?:.*/)?";  // "**/" : zero or more whole components
          i += 3;
        } else if (slash_before && i + 2 == glob.size()) {
          // trailing "/**": everything below; the directory itself is handled by caller
          out += ".*";
          i += 2;
        } else {
          out += ".*";
          i += 2;
        }
        continue;
      }
      out += in_path ? "[^/]*" : ".*";
      ++i;
    } else if (c == '?') {
      out += in_path ? "[^/]" : ".";
      ++i;
    } else if (c == '[') {
      size_t next = appendClass(glob, i, in_path, out);
      if (next == std::string_view::npos) {
        out += "\\[";
        ++i;
      } else {
        i = next;
      }
    } else if (c == '\\' && i + 1 < glob.size()) {
      out += RE2::QuoteMeta(std::string(1, glob[i + 1]));
      i += 2;
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string textGlobToRegex(std::string_view glob) {
  return translate(glob, false);
}

namespace {

// A path glob as both the translation and the literal filter read it: "~" is
// the home directory, normalized and matched literally (a home may contain
// glob or regex characters, or end in a slash); trailing slashes go; a
// pattern not starting at `/` or `~` matches at any depth.
struct PathGlobReading {
  std::string home_literal;  ///< the home directory a `~` glob starts with, or ""
  std::string_view pattern;  ///< the rest (for an unanchored glob without its `**/`)
  bool anchored = false;
  bool home_only = false;  ///< the glob is just `~`
};

// The home directory as a `~` glob starts with it: normalized, "" for `/`.
// A policy's globs share one home, so the last one is remembered.
std::string homeLiteral(std::string_view home) {
  thread_local std::string last_home;
  thread_local std::string last_literal;
  thread_local bool known = false;
  if (!known || home != last_home) {
    const std::string normalized = normalizePath(home, "/", "/");
    last_literal = normalized == "/" ? "" : normalized;
    last_home = home;
    known = true;
  }
  return last_literal;
}

PathGlobReading readPathGlob(std::string_view glob, std::string_view home) {
  PathGlobReading out;
  out.pattern = glob;
  if (glob == "~" || glob.starts_with("~/")) {
    out.home_literal = homeLiteral(home);
    out.pattern = glob.substr(1);
    out.home_only = out.pattern.empty();
  }
  while (out.pattern.size() > 1 && out.pattern.back() == '/') out.pattern.remove_suffix(1);
  out.anchored = !out.home_literal.empty() || out.pattern.starts_with('/');
  if (!out.anchored && out.pattern.starts_with("**/")) out.pattern.remove_prefix(3);
  return out;
}

}  // namespace

std::string pathGlobToRegex(std::string_view glob, std::string_view home) {
  const PathGlobReading reading = readPathGlob(glob, home);
  const std::string& literal = reading.home_literal;
  if (reading.home_only) return literal.empty() ? "/" : RE2::QuoteMeta(literal);
  const std::string_view pattern = reading.pattern;
  const std::string prefix = reading.anchored ? "" : "/?(?:.*/)?";  // relative: at any depth
  const std::string quoted_literal = RE2::QuoteMeta(literal);
  const std::string body = quoted_literal + translate(pattern, true);
  // "dir/**" also matches "dir" itself.
  if (pattern.size() >= 3 && pattern.ends_with("/**")) {
    std::string_view dir = pattern.substr(0, pattern.size() - 3);
    return prefix + "(?:" + body + "|" + quoted_literal + translate(dir, true) + ")";
  }
  return prefix + body;
}

namespace {

// `*`, `?`, `[` and a backslash: the characters that can end a literal run.
constexpr bool isGlobSpecial(char c) {
  return c == '*' || c == '?' || c == '[' || c == '\\';
}

// The longest run of literal characters of a glob, as translate() reads it
// (the first run starting with `first`): `*`, `?` and a closed `[...]` end
// a run; `\x` is x; an unclosed `[` is literal. Of equal runs, the first.
std::string longestLiteralRun(std::string_view glob, std::string first) {
  std::string best;
  std::string run = std::move(first);
  auto endRun = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
  };
  for (size_t i = 0; i < glob.size();) {
    // The plain characters up to the next that means more, in one append
    // (find_first_of would call memchr once per character).
    size_t special = i;
    while (special < glob.size() && !isGlobSpecial(glob[special])) ++special;
    run.append(glob.data() + i, special - i);
    i = special;
    if (i == glob.size()) break;
    const char c = glob[i];
    // "**/" after a `/` (or at the start) is zero or more whole components:
    // its slash is optional, so it starts no run.
    if (c == '*' && glob.substr(i).starts_with("**/") && (i == 0 || glob[i - 1] == '/')) {
      endRun();
      i += 3;
      continue;
    }
    if (c == '*' || c == '?') {
      endRun();
      ++i;
    } else if (c == '[') {
      std::string ignored;
      const size_t next = appendClass(glob, i, true, ignored);
      if (next == std::string_view::npos) {
        run += '[';
        ++i;
      } else {
        endRun();
        i = next;
      }
    } else if (c == '\\' && i + 1 < glob.size()) {
      run += glob[i + 1];
      i += 2;
    } else {
      run += c;
      ++i;
    }
  }
  endRun();
  return best;
}

}  // namespace

std::string requiredPathGlobLiteral(std::string_view glob, std::string_view home) {
  // Read as pathGlobToRegex reads it; "dir/**" also matches "dir", so only
  // dir's runs count.
  PathGlobReading reading = readPathGlob(glob, home);
  std::string_view& pattern = reading.pattern;
  if (pattern.size() >= 3 && pattern.ends_with("/**")) {
    pattern.remove_suffix(3);
    // `a\/**`: the body reads an escaped slash, the "dir" alternative a
    // backslash; no run is sure to be in both.
    size_t backslashes = 0;
    while (backslashes < pattern.size() && pattern[pattern.size() - 1 - backslashes] == '\\') {
      ++backslashes;
    }
    if (backslashes % 2 == 1) return "";
  }
  // The home comes right before the first run.
  return longestLiteralRun(pattern, std::move(reading.home_literal));
}

GlobLiteralFilter::GlobLiteralFilter(std::vector<std::string> literals)
    : enabled_(!literals.empty()), literals_(std::move(literals)) {
  for (const std::string& literal : literals_) {
    if (literal.empty()) enabled_ = false;
  }
}

namespace {

// Whether `folded_name` (ASCII-lowercase) holds `literal` with its ASCII
// letters in either case. Folded when a case-insensitive name asks, not
// when the filter is made: most names are compared exactly.
bool holdsFolded(std::string_view folded_name, std::string_view literal) {
  if (literal.size() > folded_name.size()) return false;
  for (size_t at = 0; at + literal.size() <= folded_name.size(); ++at) {
    size_t k = 0;
    while (k < literal.size() && asciiLower(literal[k]) == folded_name[at + k]) ++k;
    if (k == literal.size()) return true;
  }
  return false;
}

}  // namespace

bool GlobLiteralFilter::mayMatch(std::string_view name, bool fold) const {
  if (!enabled_) return true;
  if (!fold) {
    return std::any_of(literals_.begin(), literals_.end(), [name](const std::string& literal) {
      return name.find(literal) != std::string_view::npos;
    });
  }
  // Ignoring case, RE2 also folds some ASCII letters to other characters
  // (k to the Kelvin sign, s to the long s): only an all-ASCII name is sure.
  if (hasNonAscii(name)) return true;
  const std::string folded_name = asciiLowercase(name);
  return std::any_of(
      literals_.begin(), literals_.end(),
      [&folded_name](const std::string& literal) { return holdsFolded(folded_name, literal); });
}

std::optional<std::string> suffixOfNameGlob(std::string_view glob) {
  if (glob.starts_with("**/")) glob.remove_prefix(3);
  if (glob.size() < 2 || glob[0] != '*') return std::nullopt;
  const std::string_view suffix = glob.substr(1);
  if (suffix.find_first_of("*?[\\/") != std::string_view::npos) return std::nullopt;
  return std::string(suffix);
}

bool lastComponentEndsWith(std::string_view path, std::string_view suffix, bool fold) {
  const size_t slash = path.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (last.size() < suffix.size()) return false;
  const std::string_view end = last.substr(last.size() - suffix.size());
  if (!fold) return end == suffix;
  return std::equal(end.begin(), end.end(), suffix.begin(),
                    [](char a, char b) { return asciiLower(a) == asciiLower(b); });
}

bool hasNonAscii(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return (c & 0x80) != 0; });
}

Expected<void> checkPathGlob(std::string_view glob) {
  // Written only for a glob with a problem: every glob of every policy comes here.
  const auto quoted = [glob] { return "path glob '" + std::string(glob) + "'"; };
  if (glob.empty()) return fail(quoted() + " is empty");
  if (glob.starts_with('~') && glob != "~" && !glob.starts_with("~/")) {
    return fail(quoted() +
                " can never match: only `~/` (the home directory) is expanded; write the "
                "other user's home as an absolute path");
  }
  // Components `.` and `..` are gone from every path compared (a leading `./`
  // is the cwd and fine).
  std::string_view rest = glob.starts_with("./") ? glob.substr(2) : glob;
  size_t start = 0;
  while (start <= rest.size()) {
    size_t slash = rest.find('/', start);
    if (slash == std::string_view::npos) slash = rest.size();
    const std::string_view part = rest.substr(start, slash - start);
    if (part == "..") {
      return fail(quoted() +
                  " can never match: paths are compared with `..` resolved; write where it "
                  "leads (an absolute path, `~/...`, or `./...` below the cwd)");
    }
    if (part == "." && !(start == 0 && slash == rest.size())) {
      return fail(quoted() + " can never match: paths are compared with `.` removed");
    }
    start = slash + 1;
  }
  return {};
}

}  // namespace toolguard::detail
