// A rule's `path:` matcher: globs, regexes, the workspace and exceptions.
#include "path_matcher.hpp"

#include <algorithm>

#include "core/glob.hpp"
#include "core/value_matcher.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// A glob of the part of a path below the call's cwd: `.`, `./`, `./x`.
bool readBelowCwd(const std::string& glob) {
  return glob == "." || glob.starts_with("./");
}

}  // namespace

CompiledPathMatcher::CompiledPathMatcher(const PathMatcher& spec, bool every_path)
    : outside_workspace_(spec.outside_workspace),
      every_path_(every_path),
      spec_globs_(spec.glob),
      spec_except_(spec.except),
      where_(spec.where),
      home_(homeDirectory()) {
  // What can be wrong is found now, so that a bad policy is a load error; the
  // globs themselves are read the first time a call reaches the rule.
  for (const auto& [list, what] :
       {std::pair{&spec_globs_, "path glob"}, std::pair{&spec_except_, "path.except glob"}}) {
    for (const std::string& g : *list) {
      if (g.find('[') == std::string::npos) continue;
      for (const std::string& alternative : expandBraces(g)) {
        if (alternative.find('[') != std::string::npos) {
          compileRegex(pathGlobToRegex(alternative, home_), where_, what);
        }
      }
    }
  }
  // A regex is the user's own: compiled now, so a bad one is a load error.
  if (!spec.regex.empty()) {
    regex_ = compileTranslated(spec.regex, spec.where, "regex", regex_text_,
                               [](const std::string& r) { return r; });
    regex_nocase_ = std::make_unique<LazyRegex>(regex_->pattern(), regex_->options());
    regex_nocase_ = regex_nocase_->ignoringCase();
  }
  if (spec_globs_.empty() && !regex_ && !outside_workspace_) {
    throw PolicyError(spec.where, "path matcher needs one of glob, regex, outside_workspace");
  }
}

void CompiledPathMatcher::prepare() const {
  std::call_once(prepared_, [this] {
    // A glob starting with "./" is relative to the call's cwd: it is matched,
    // as an anchored glob, against the part of a path below the cwd.
    std::vector<std::string> anywhere;
    std::vector<std::string> below_cwd;
    // Braces are alternatives: `*.{pem,key}` is `*.pem` and `*.key`.
    auto expandAll = [](const std::vector<std::string>& written) {
      std::vector<std::string> out;
      out.reserve(written.size());
      for (const std::string& g : written) {
        if (g.find('{') == std::string::npos) {
          out.push_back(g);  // most globs: no vector of one made and copied
          continue;
        }
        for (std::string& alternative : expandBraces(g)) out.push_back(std::move(alternative));
      }
      return out;
    };
    std::vector<std::string> globs = expandAll(spec_globs_);
    std::vector<std::string> exceptions = expandAll(spec_except_);
    for (const std::string& g : globs) {
      if (!readBelowCwd(g)) {
        anywhere.push_back(g);
      } else {
        below_cwd.push_back(g == "." || g == "./" ? "/" : g.substr(1));
      }
    }
    globs_ = PathGlobSet(std::move(anywhere), home_);
    cwd_globs_ = PathGlobSet(std::move(below_cwd), home_);
    example_globs_ = std::move(globs);
    except_ = PathGlobSet(std::move(exceptions), home_);
  });
}

const std::vector<PathExample>& CompiledPathMatcher::examples() const {
  prepare();
  std::call_once(examples_once_, [this] {
    for (const std::string& g : example_globs_) {
      for (PathExample& ex : examplesOfGlob(g, home_)) examples_.push_back(std::move(ex));
    }
  });
  return examples_;
}

bool CompiledPathMatcher::globMatches(const std::string& name, bool fold,
                                      const CallView& view) const {
  if (globs_.matches(name, fold)) return true;
  if (cwd_globs_.empty()) return false;
  for (const std::string& cwd : view.cwdForms()) {
    if (!isWithin(name, cwd, fold)) continue;
    std::string_view rest = std::string_view(name).substr(cwd == "/" ? 0 : cwd.size());
    if (rest.empty()) rest = "/";
    if (cwd_globs_.matches(rest, fold)) return true;
  }
  return false;
}

bool CompiledPathMatcher::nameMatches(const std::string& name, bool fold,
                                      const CallView& view) const {
  prepare();
  if ((!globs_.empty() || !cwd_globs_.empty()) && !globMatches(name, fold, view)) return false;
  if (regex_ != nullptr) {
    if (fold ? !fullMatch(name, regex_nocase_) : !RE2::FullMatch(name, *regex_)) return false;
  }
  return true;
}

bool CompiledPathMatcher::excepted(const ResolvedPath& path) const {
  prepare();
  // Every form must be an exception: a link from an excepted name to
  // anywhere else is still judged by where it leads.
  return !except_.empty() &&
         everyForm(path, [&](const std::string& form) { return except_.matches(form, false); });
}

bool CompiledPathMatcher::matchesProbe(const PathAccess& probe, const CallView& view) const {
  const ResolvedPath& path = probe.path;
  if (excepted(path)) return false;
  if (!spec_globs_.empty() || regex_) {
    // Restricting rules catch a path by any of its forms; loosening ones need all.
    auto test = [&](const std::string& name) {
      return nameMatches(name, path.case_insensitive, view);
    };
    if (every_path_ ? !everyForm(path, test) : !anyForm(path, test)) return false;
  }
  if (outside_workspace_) {
    if (!probe.known_location) return false;
    if (view.insideWorkspace(path) == *outside_workspace_) return false;
  }
  return true;
}

bool CompiledPathMatcher::accessMatches(const PathAccess& access, const CallView& view) const {
  if (!every_path_) {
    const std::vector<PathAccess> probes = pathProbes(
        access, [this]() -> const std::vector<PathExample>& { return examples(); }, view);
    return std::any_of(probes.begin(), probes.end(),
                       [&](const PathAccess& probe) { return matchesProbe(probe, view); });
  }
  // A loosening rule must hold for what the access stands for: a tree by its
  // directory, a glob by its directory and by what it names.
  PathAccess file = access;
  file.shape = PathShape::File;
  if (access.shape != PathShape::Pattern) return matchesProbe(file, view);
  const std::string dir = literalDirectory(access.path.lexical);
  if (dir.empty()) return false;
  for (const std::string& part : {dir, representativeOfGlob(access.path.lexical)}) {
    PathValidation checked = view.resolve(part, "/");
    if (!checked) return false;
    file.path = *checked.path;
    if (!matchesProbe(file, view)) return false;
  }
  return true;
}

bool CompiledPathMatcher::matches(const CallView& view) const {
  return matchesAccesses(view.pathAccesses(), view);
}

bool CompiledPathMatcher::matchesAccesses(const std::vector<PathAccess>& accesses,
                                          const CallView& view) const {
  if (accesses.empty()) return false;
  if (every_path_) {
    if (view.pathError()) return false;
    return std::all_of(accesses.begin(), accesses.end(),
                       [&](const PathAccess& a) { return accessMatches(a, view); });
  }
  return std::any_of(accesses.begin(), accesses.end(),
                     [&](const PathAccess& a) { return accessMatches(a, view); });
}

std::string CompiledPathMatcher::describe() const {
  prepare();
  std::string out;
  auto add = [&out](std::string part) {
    if (!out.empty()) out += " and ";
    out += part;
  };
  // The globs as `"a", "b"`: those read anywhere, then the `./` ones.
  auto joined = [](const std::vector<std::string>& globs, auto&& take) {
    std::string text;
    for (const std::string& g : globs) {
      if (!take(g)) continue;
      if (!text.empty()) text += "\", \"";
      text += g;
    }
    return text;
  };
  if (!globs_.empty() || !cwd_globs_.empty()) {
    const std::string anywhere =
        joined(example_globs_, [](const std::string& g) { return !readBelowCwd(g); });
    const std::string cwd = joined(example_globs_, readBelowCwd);
    add("path glob \"" + anywhere + (anywhere.empty() || cwd.empty() ? "" : "\", \"") + cwd + "\"");
  }
  if (regex_) add("path regex \"" + regex_text_ + "\"");
  if (outside_workspace_)
    add(*outside_workspace_ ? "outside the workspace" : "inside the workspace");
  if (!except_.empty()) {
    add("not \"" + joined(except_.globs(), [](const std::string&) { return true; }) + "\"");
  }
  return out;
}

}  // namespace toolguard::detail
