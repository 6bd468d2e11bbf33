// The concrete paths a tree or a glob stands for (see path_probes.hpp).
#include "path_probes.hpp"

#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <re2/re2.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "core/glob.hpp"
#include "file_glance.hpp"

namespace toolguard::detail {
namespace {

std::string joinComponents(const std::vector<std::string>& parts, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (!out.empty()) out += '/';
    out += parts[i];
  }
  return out;
}

std::vector<std::string> splitComponents(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t slash = text.find('/', start);
    if (slash == std::string_view::npos) slash = text.size();
    if (slash > start) parts.emplace_back(text.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// Whether `text` ends with `/` and the first `k` of `parts` joined by `/`
// (as "/" + joinComponents(parts, 0, k) would spell it, without building it).
bool endsWithComponents(std::string_view text, const std::vector<std::string>& parts, size_t k) {
  size_t end = text.size();
  for (size_t i = k; i-- > 0;) {
    const std::string& part = parts[i];
    if (end < part.size() + 1 || text.compare(end - part.size(), part.size(), part) != 0) {
      return false;
    }
    end -= part.size() + 1;
    if (text[end] != '/') return false;
  }
  return true;
}

bool hasWildcard(std::string_view text) {
  return text.find_first_of("*?[") != std::string_view::npos;
}

// `rest` (starting with '/') placed under `base`.
std::string under(const std::string& base, std::string_view rest) {
  if (base == "/") return std::string(rest);
  return base + std::string(rest);
}

// Collects probes once each.
class Probes {
 public:
  Probes(const PathAccess& access, std::vector<PathAccess>& out) : base_(access), out_(out) {
    // Each probe is the access at one file: copied without the access's own path.
    base_.shape = PathShape::File;
    base_.path = ResolvedPath{};
    base_.path.case_insensitive = access.path.case_insensitive;
  }

  void add(const std::string& lexical, const std::string& resolved) {
    if (!seen_.insert(lexical + '\n' + resolved).second) return;
    PathAccess& probe = out_.emplace_back(base_);
    probe.path.lexical = lexical;
    probe.path.resolved = resolved;
  }
  void add(const ResolvedPath& path) {
    if (!seen_.insert(path.lexical + '\n' + path.resolved + '\n' + path.resolved_after_normalizing)
             .second) {
      return;
    }
    PathAccess& probe = out_.emplace_back(base_);
    probe.path = path;
  }

 private:
  PathAccess base_;
  std::vector<PathAccess>& out_;
  std::unordered_set<std::string> seen_;
};

// The forms of a path, each once.
std::vector<std::string> formsOf(const ResolvedPath& path) {
  std::vector<std::string> forms{path.lexical};
  if (path.resolved != path.lexical) forms.push_back(path.resolved);
  if (!path.resolved_after_normalizing.empty() && path.resolved_after_normalizing != path.lexical &&
      path.resolved_after_normalizing != path.resolved) {
    forms.push_back(path.resolved_after_normalizing);
  }
  return forms;
}

// Whether names exist directly inside a directory: the directory is read
// once, when first asked (one readdir instead of an lstat per named place:
// the default policy names about a hundred); a directory too large to hold
// in memory here, or one whose file system ignores case, is asked name by
// name, each name once.
class DirectoryListing {
 public:
  DirectoryListing(const std::string& dir, bool case_insensitive)
      : dir_(dir), case_insensitive_(case_insensitive) {}

  bool has(std::string_view name) {
    if (!read_) {
      read_ = true;
      if (!case_insensitive_) names_ = read(dir_);
    }
    if (names_) return names_->contains(name);
    auto [known, inserted] = looked_up_.try_emplace(std::string(name), false);
    if (inserted) {
      struct stat st {};
      known->second = glanceLstat(under(dir_, "/" + std::string(name)), st);
    }
    return known->second;
  }

 private:
  static constexpr size_t kMaxEntries = 4096;
  static std::optional<std::set<std::string, std::less<>>> read(const std::string& dir) {
    DIR* handle = ::opendir(dir.c_str());
    if (handle == nullptr) return std::set<std::string, std::less<>>();  // nothing inside
    std::set<std::string, std::less<>> names;
    while (const dirent* entry = ::readdir(handle)) {
      if (names.size() >= kMaxEntries) {
        ::closedir(handle);
        return std::nullopt;
      }
      names.emplace(entry->d_name);
    }
    ::closedir(handle);
    return names;
  }
  const std::string& dir_;
  bool case_insensitive_;
  bool read_ = false;
  std::optional<std::set<std::string, std::less<>>> names_;
  std::map<std::string, bool, std::less<>> looked_up_;
};

// Where each name occurs in a tree, for a recursive read: the directories
// (relative to the top, "" for the top) holding an entry of that name, read
// once per tree without following links (as `grep -r` walks). A tree of more
// entries than are read here is not complete: a name may be anywhere below.
class TreeNames {
 public:
  explicit TreeNames(const std::string& root, bool skip_hidden) {
    std::vector<std::pair<std::string, std::string>> pending{{root, ""}};
    while (!pending.empty() && complete_) {
      auto [dir, relative] = std::move(pending.back());
      pending.pop_back();
      DIR* handle = ::opendir(dir.c_str());
      if (handle == nullptr) continue;
      while (const dirent* entry = ::readdir(handle)) {
        const std::string_view name = entry->d_name;
        if (name == "." || name == ".." || (skip_hidden && name.starts_with('.'))) continue;
        if (++entries_ > kMaxEntries) {
          complete_ = false;
          break;
        }
        names_[std::string(name)].push_back(relative);
        bool is_directory = entry->d_type == DT_DIR;
        const std::string path = under(dir, "/" + std::string(name));
        if (entry->d_type == DT_LNK) links_.push_back(path);
        if (entry->d_type == DT_UNKNOWN) {
          struct stat st {};
          is_directory = ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
        }
        if (is_directory) {
          pending.emplace_back(
              path, relative.empty() ? std::string(name) : relative + "/" + std::string(name));
        }
      }
      ::closedir(handle);
    }
  }
  bool complete() const { return complete_; }
  /// The symbolic links in the tree, as paths under its top.
  const std::vector<std::string>& links() const { return links_; }
  /// Every name in the tree with the directories holding it.
  const std::map<std::string, std::vector<std::string>, std::less<>>& names() const {
    return names_;
  }
  /// The directories holding an entry named `name`; null when none does.
  const std::vector<std::string>* directoriesHolding(const std::string& name) const {
    const auto it = names_.find(name);
    return it == names_.end() ? nullptr : &it->second;
  }

 private:
  // About 20 ms of reading on a warm cache (a check of `grep -r` over 9,000
  // entries took 37 ms against 17 ms): enough for a project's sources,
  // not for a tree with node_modules or a home directory.
  static constexpr size_t kMaxEntries = 10000;
  size_t entries_ = 0;
  bool complete_ = true;
  std::vector<std::string> links_;
  std::map<std::string, std::vector<std::string>, std::less<>> names_;
};

// Named places inside, or around, the directory `dir` (see pathProbes).
void treeProbes(const PathAccess& access, const ResolvedPath& dir,
                const std::vector<PathExample>& examples, bool whole_tree, Probes& probes,
                bool hidden_names = true) {
  std::map<std::string, std::optional<TreeNames>> trees;  // each form read once
  std::set<std::string> links_judged;
  // A recursive read prints what it finds at any depth, hidden files
  // too (`grep -r TOKEN .` with a `backend/.env`): every directory of
  // the tree that holds a named place; when the tree is too large to
  // read, the place may be anywhere below (`DIR/**/.env`), never nowhere.
  const bool visible_only = access.route.ends_with(" (not hidden files)") || !hidden_names;
  const std::string_view route =
      std::string_view(access.route)
          .substr(0,
                  access.route.size() - (access.route.ends_with(" (not hidden files)") ? 19 : 0));
  const bool follows = route.ends_with(" -R") || access.shape == PathShape::Pattern;
  const bool reads_inside =
      access.kind == PathAccessKind::Read &&
      (route.ends_with(" -r") || route.ends_with(" -R") || access.shape == PathShape::Pattern);
  // A recursive delete or change reaches what is inside: a named place
  // that exists directly inside it right now.
  const bool reaches_inside = access.kind == PathAccessKind::Write;
  for (const std::string& form : formsOf(dir)) {
    DirectoryListing listing(form, dir.case_insensitive);
    for (const PathExample& ex : examples) {
      if (ex.anchored) {
        if (ex.text != form && isWithin(ex.text, form)) probes.add(ex.text, ex.text);
        continue;
      }
      const std::vector<std::string>& parts = ex.components;
      for (size_t k = 1; k < parts.size(); ++k) {
        if (endsWithComponents(form, parts, k)) {
          const std::string candidate = under(form, "/" + joinComponents(parts, k, parts.size()));
          probes.add(candidate, candidate);
        }
      }
      // A file-name glob (`id_rsa*`, `*.pem`) meets every name it matches.
      const bool name_glob = !ex.literal_first && parts.size() == 1 && !ex.first_glob.empty();
      if (whole_tree && reads_inside && access.known_location && (ex.literal_first || name_glob) &&
          !parts.empty()) {
        auto [names, inserted] = trees.try_emplace(form + (visible_only ? "\n" : ""), std::nullopt);
        if (inserted) names->second.emplace(form, visible_only);
        const TreeNames& tree = *names->second;
        auto addUnder = [&](const std::vector<std::string>& dirs, const std::string& rest) {
          for (const std::string& relative : dirs) {
            const std::string candidate =
                under(form, "/" + (relative.empty() ? "" : relative + "/") + rest);
            probes.add(candidate, candidate);
          }
        };
        if (name_glob) {
          for (const auto& [name, dirs] : tree.names()) {
            if (::fnmatch(ex.first_glob.c_str(), name.c_str(), 0) == 0) {
              addUnder(dirs, name);
            }
          }
        } else if (const std::vector<std::string>* dirs = tree.directoriesHolding(parts.front())) {
          addUnder(*dirs, ex.text);
        }
        if (!tree.complete()) {
          const std::string candidate = under(form, "/**/" + ex.text);
          probes.add(candidate, candidate);
        }
        // Names handed to a program that opens them (`find src -exec cat {}
        // +`) and readers that follow links (`grep -R`, `rg -L`, `diff -r`)
        // read each link where it leads.
        if (follows && !links_judged.contains(form)) {
          links_judged.insert(form);
          for (const std::string& link : tree.links()) {
            char target[PATH_MAX];
            if (::realpath(link.c_str(), target) != nullptr) {
              probes.add(link, target);
              continue;
            }
            // A link to nothing yet: where it points, as written.
            const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
            if (n <= 0) continue;
            const std::string to(target, static_cast<size_t>(n));
            const std::string where =
                to.starts_with('/') ? to : link.substr(0, link.rfind('/') + 1) + to;
            probes.add(link, normalizePath(where, "/", ""));
          }
        }
        continue;
      }
      if (whole_tree && reaches_inside && access.known_location && ex.literal_first &&
          !parts.empty()) {
        if (listing.has(parts.front())) {
          const std::string candidate = under(form, "/" + ex.text);
          probes.add(candidate, candidate);
        }
      }
    }
  }
}

void patternProbes(const PathAccess& access, const std::vector<PathExample>& examples,
                   const CallView& view, Probes& probes) {
  const std::string& pattern = access.path.lexical;
  std::string dir = literalDirectory(pattern);
  if (dir == pattern) {
    probes.add(access.path);
    return;
  }
  if (dir.empty()) dir = "/";
  ResolvedPath dir_path;
  dir_path.lexical = dir_path.resolved = dir;
  if (access.known_location) {
    if (PathValidation checked = view.resolve(dir, "/"); checked) dir_path = *checked.path;
  }
  // 1. What the glob names with its wildcards filled in.
  const std::string rep = representativeOfGlob(pattern);
  const std::string rest = rep.substr(dir == "/" ? 0 : dir.size());
  probes.add(rep, under(dir_path.resolved, rest));
  // 2. The directory it starts in, as a tree.
  probes.add(dir_path);
  // A pattern of everything below its directory (`src/**`) reaches what
  // is inside it, as a tree does.
  // So does a glob with a wildcard above its last part (`*/*`, `src/*/*.txt`):
  // bash expands it to files anywhere below, never to hidden ones unless a
  // part asks for them (`.*/*`).
  const size_t last_slash = pattern.rfind('/');
  const bool wild_above = last_slash != std::string::npos &&
                          pattern.substr(dir.size(), last_slash - std::min(last_slash, dir.size()))
                                  .find_first_of("*?[") != std::string::npos;
  const bool hidden_named = pattern.find("/.") != std::string::npos;
  treeProbes(access, dir_path, examples,
             pattern.ends_with("/**") || (wild_above && access.kind == PathAccessKind::Read),
             probes, pattern.ends_with("/**") || hidden_named);
  // 3. The named places it is aimed at, unless it takes ordinary names too.
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 glob(pathGlobToRegex(pattern, view.home()), options);
  if (!glob.ok()) return;
  const std::string prefix = dir == "/" ? "" : dir;
  for (const char* ordinary : {"x", "x.txt", "main.c", "README.md"}) {
    if (RE2::FullMatch(prefix + "/" + ordinary, glob) ||
        RE2::FullMatch(prefix + "/x/" + ordinary, glob)) {
      return;
    }
  }
  auto tryCandidate = [&](const std::string& candidate) {
    if (!RE2::FullMatch(candidate, glob)) return;
    const std::string tail = candidate.substr(prefix.size());
    probes.add(candidate, under(dir_path.resolved, tail));
  };
  for (const PathExample& ex : examples) {
    if (ex.anchored) {
      if (isWithin(ex.text, dir)) tryCandidate(ex.text);
      continue;
    }
    tryCandidate(prefix + "/" + ex.text);
    tryCandidate(prefix + "/x/" + ex.text);
    for (size_t k = 1; k < ex.components.size(); ++k) {
      if (dir.ends_with("/" + joinComponents(ex.components, 0, k))) {
        tryCandidate(prefix + "/" + joinComponents(ex.components, k, ex.components.size()));
      }
    }
  }
}

}  // namespace

std::string representativeOfGlob(std::string_view glob) {
  std::string out;
  for (size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*') {
      out += 'x';
      while (i + 1 < glob.size() && glob[i + 1] == '*') ++i;
    } else if (c == '?') {
      out += 'x';
    } else if (c == '[') {
      const size_t close = glob.find(']', i + 2);
      if (close == std::string_view::npos) {
        out += c;
        continue;
      }
      const char first = glob[i + 1];
      out += (first == '!' || first == '^' || first == '[') ? 'x' : first;
      i = close;
    } else if (c == '\\' && i + 1 < glob.size()) {
      out += glob[++i];
    } else {
      out += c;
    }
  }
  return out;
}

std::string literalDirectory(std::string_view glob) {
  const size_t wild = glob.find_first_of("*?[");
  if (wild == std::string_view::npos) return std::string(glob);
  const size_t slash = glob.rfind('/', wild);
  if (slash == std::string_view::npos) return "";
  if (slash == 0) return "/";
  return std::string(glob.substr(0, slash));
}

std::vector<std::string> expandBraces(std::string_view glob, size_t limit) {
  if (glob.find('{') == std::string_view::npos) return {std::string(glob)};
  std::vector<std::string> done;
  std::vector<std::string> work{std::string(glob)};
  size_t steps = 0;
  while (!work.empty() && done.size() < limit && ++steps < limit * 16) {
    std::string s = std::move(work.back());
    work.pop_back();
    bool expanded = false;
    for (size_t open = s.find('{'); open != std::string::npos && !expanded;
         open = s.find('{', open + 1)) {
      if (open > 0 && s[open - 1] == '\\') continue;
      int depth = 0;
      std::vector<size_t> commas;
      size_t close = std::string::npos;
      for (size_t i = open; i < s.size(); ++i) {
        if (s[i] == '\\') {
          ++i;
        } else if (s[i] == '{') {
          ++depth;
        } else if (s[i] == '}' && --depth == 0) {
          close = i;
          break;
        } else if (s[i] == ',' && depth == 1) {
          commas.push_back(i);
        }
      }
      if (close == std::string::npos || commas.empty()) continue;
      commas.push_back(close);
      size_t start = open + 1;
      for (size_t comma : commas) {
        work.push_back(s.substr(0, open) + s.substr(start, comma - start) + s.substr(close + 1));
        start = comma + 1;
      }
      expanded = true;
    }
    if (!expanded) done.push_back(std::move(s));
  }
  if (done.empty()) done.emplace_back(glob);
  return done;
}

std::vector<PathExample> examplesOfGlob(std::string_view glob, const std::string& home) {
  std::vector<PathExample> out;
  if (glob == "." || glob.starts_with("./")) return out;
  for (std::string alternative : expandBraces(glob)) {
    if (alternative.starts_with("**/")) alternative.erase(0, 3);
    PathExample ex;
    if (alternative == "~" || alternative.starts_with("~/")) {
      const std::string normalized_home = normalizePath(home, "/", "/");
      alternative = (normalized_home == "/" ? "" : normalized_home) + alternative.substr(1);
      if (alternative.empty()) alternative = "/";
    }
    while (alternative.size() > 1 && alternative.back() == '/') alternative.pop_back();
    ex.anchored = alternative.starts_with('/');
    ex.text = representativeOfGlob(alternative);
    if (!ex.anchored) {
      ex.components = splitComponents(ex.text);
      const std::vector<std::string> written = splitComponents(alternative);
      ex.literal_first = !written.empty() && !hasWildcard(written.front());
      if (!written.empty()) ex.first_glob = written.front();
    }
    if (!ex.text.empty()) out.push_back(std::move(ex));
  }
  return out;
}

std::vector<PathAccess> pathProbes(const PathAccess& access, const PathExamplesSource& examples,
                                   const CallView& view) {
  std::vector<PathAccess> out;
  Probes probes(access, out);
  switch (access.shape) {
    case PathShape::File:
      probes.add(access.path);
      break;
    case PathShape::Tree:
      probes.add(access.path);
      treeProbes(access, access.path, examples(), true, probes);
      break;
    case PathShape::Pattern:
      patternProbes(access, examples(), view, probes);
      break;
  }
  return out;
}

}  // namespace toolguard::detail
