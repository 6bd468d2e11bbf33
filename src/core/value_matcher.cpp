// Matching argument values, command text, context fields and paths.
#include "value_matcher.hpp"

#include <algorithm>

#include "glob.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {

std::unique_ptr<RE2> compileRegex(const std::string& pattern, const SourceLocation& where,
                                  std::string_view what) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  auto re = std::make_unique<RE2>("(?:" + pattern + ")", options);
  if (!re->ok()) {
    throw PolicyError(where, "invalid " + std::string(what) + " '" + pattern + "': " + re->error());
  }
  return re;
}

std::unique_ptr<RE2> compileAlternatives(const std::vector<std::string>& patterns,
                                         const SourceLocation& where, std::string_view what) {
  if (patterns.empty()) return nullptr;
  std::string joined;
  for (const std::string& p : patterns) {
    // Appends, not operator+: GCC 12 -O2 warns (-Wrestrict) on the temporaries.
    if (!joined.empty()) joined += '|';
    joined.append("(?:").append(p).append(")");
  }
  try {
    return compileRegex(joined, where, what);
  } catch (const PolicyError&) {
    for (const std::string& p : patterns) compileRegex(p, where, what);  // names the bad one
    throw;
  }
}

namespace {

// Patterns translated to RE2 by `translate`, as one alternation; `text` lists them.
template <typename Translate>
std::unique_ptr<RE2> compileTranslated(const std::vector<std::string>& patterns,
                                       const SourceLocation& where, std::string_view what,
                                       std::string& text, Translate translate) {
  std::vector<std::string> translated;
  for (const std::string& p : patterns) {
    translated.push_back(translate(p));
    if (!text.empty()) text += "\", \"";
    text += p;
  }
  return compileAlternatives(translated, where, what);
}

std::string same(const std::string& s) {
  return s;
}

}  // namespace

CompiledValueMatcher::CompiledValueMatcher(const ValueMatcher& spec)
    : equals_(spec.equals), one_of_(spec.one_of) {
  glob_ = compileTranslated(spec.glob, spec.where, "glob", glob_text_,
                            [](const std::string& g) { return textGlobToRegex(g); });
  regex_ = compileTranslated(spec.regex, spec.where, "regex", regex_text_, same);
  if (!equals_ && one_of_.empty() && !glob_ && !regex_) {
    throw PolicyError(spec.where, "matcher needs at least one of equals, one_of, glob, regex");
  }
}

bool CompiledValueMatcher::matchesText(std::string_view text) const {
  if (!one_of_.empty() && std::none_of(one_of_.begin(), one_of_.end(), [&](const auto& v) {
        return v.is_string() && v.template get_ref<const std::string&>() == text;
      })) {
    return false;
  }
  if (equals_ && !(equals_->is_string() && equals_->get_ref<const std::string&>() == text)) {
    return false;
  }
  if (glob_ && !RE2::FullMatch(text, *glob_)) return false;
  if (regex_ && !RE2::FullMatch(text, *regex_)) return false;
  return true;
}

bool CompiledValueMatcher::matchesScalar(const nlohmann::json& value) const {
  if (equals_ && *equals_ != value) return false;
  if (!one_of_.empty() && std::find(one_of_.begin(), one_of_.end(), value) == one_of_.end()) {
    return false;
  }
  if (!glob_ && !regex_) return true;
  if (value.is_object() || value.is_array()) return false;
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (glob_ && !RE2::FullMatch(text, *glob_)) return false;
  if (regex_ && !RE2::FullMatch(text, *regex_)) return false;
  return true;
}

bool CompiledValueMatcher::matches(const nlohmann::json& value) const {
  if (equals_ && *equals_ == value && one_of_.empty() && !glob_ && !regex_) return true;
  if (value.is_array()) {
    for (const auto& element : value) {
      if (matchesScalar(element)) return true;
    }
    return false;
  }
  return matchesScalar(value);
}

std::string CompiledValueMatcher::describe() const {
  std::string out;
  auto add = [&out](std::string part) {
    if (!out.empty()) out += " and ";
    out += part;
  };
  if (equals_) add("equals " + equals_->dump());
  if (!one_of_.empty()) add("one of " + nlohmann::json(one_of_).dump());
  if (glob_) add("glob \"" + glob_text_ + "\"");
  if (regex_) add("regex \"" + regex_text_ + "\"");
  return out;
}

namespace {

// The same pattern, ignoring case: for paths on case-folding file systems.
std::unique_ptr<RE2> ignoringCase(const std::unique_ptr<RE2>& re) {
  if (!re) return nullptr;
  RE2::Options options = re->options();
  options.set_case_sensitive(false);
  return std::make_unique<RE2>(re->pattern(), options);
}

}  // namespace

CompiledPathMatcher::CompiledPathMatcher(const PathMatcher& spec, bool every_path)
    : outside_workspace_(spec.outside_workspace), every_path_(every_path) {
  const std::string home = homeDirectory();
  // A glob starting with "./" is relative to the call's cwd: it is matched,
  // as an anchored glob, against the part of a path below the cwd.
  std::vector<std::string> anywhere;
  std::vector<std::string> below_cwd;
  for (const std::string& g : spec.glob) {
    if (g == "." || g == "./") {
      below_cwd.emplace_back("/");
    } else if (g.starts_with("./")) {
      below_cwd.push_back(g.substr(1));
    } else {
      anywhere.push_back(g);
    }
  }
  std::string cwd_text;
  glob_ = compileTranslated(anywhere, spec.where, "path glob", glob_text_,
                            [&home](const std::string& g) { return pathGlobToRegex(g, home); });
  cwd_glob_ = compileTranslated(below_cwd, spec.where, "path glob", cwd_text,
                                [&home](const std::string& g) { return pathGlobToRegex(g, home); });
  for (const std::string& g : spec.glob) {
    if (!g.starts_with("./") && g != ".") continue;
    if (!glob_text_.empty()) glob_text_ += "\", \"";
    glob_text_ += g;
  }
  regex_ = compileTranslated(spec.regex, spec.where, "regex", regex_text_, same);
  if (!glob_ && !cwd_glob_ && !regex_ && !outside_workspace_) {
    throw PolicyError(spec.where, "path matcher needs one of glob, regex, outside_workspace");
  }
  glob_nocase_ = ignoringCase(glob_);
  cwd_glob_nocase_ = ignoringCase(cwd_glob_);
  regex_nocase_ = ignoringCase(regex_);
}

bool CompiledPathMatcher::globMatches(const std::string& name, bool fold,
                                      const CallView& view) const {
  const RE2* glob = fold ? glob_nocase_.get() : glob_.get();
  if (glob != nullptr && RE2::FullMatch(name, *glob)) return true;
  const RE2* below_cwd = fold ? cwd_glob_nocase_.get() : cwd_glob_.get();
  if (below_cwd == nullptr) return false;
  for (const std::string& cwd : view.cwdForms()) {
    if (!isWithin(name, cwd, fold)) continue;
    std::string_view rest = std::string_view(name).substr(cwd == "/" ? 0 : cwd.size());
    if (rest.empty()) rest = "/";
    if (RE2::FullMatch(rest, *below_cwd)) return true;
  }
  return false;
}

bool CompiledPathMatcher::nameMatches(const std::string& name, bool fold,
                                      const CallView& view) const {
  const RE2* regex = fold ? regex_nocase_.get() : regex_.get();
  if ((glob_ || cwd_glob_) && !globMatches(name, fold, view)) return false;
  if (regex != nullptr && !RE2::FullMatch(name, *regex)) return false;
  return true;
}

bool CompiledPathMatcher::pathMatches(const ResolvedPath& path, const CallView& view) const {
  if (glob_ || cwd_glob_ || regex_) {
    // Restricting rules catch a path by any of its forms; loosening ones need all.
    auto test = [&](const std::string& name) {
      return nameMatches(name, path.case_insensitive, view);
    };
    if (every_path_ ? !everyForm(path, test) : !anyForm(path, test)) return false;
  }
  if (outside_workspace_ && view.insideWorkspace(path) == *outside_workspace_) return false;
  return true;
}

bool CompiledPathMatcher::matches(const CallView& view) const {
  const std::vector<ResolvedPath>& paths = view.resolvedPaths();
  if (paths.empty()) return false;
  if (every_path_) {
    if (view.pathError()) return false;
    return std::all_of(paths.begin(), paths.end(),
                       [&](const ResolvedPath& p) { return pathMatches(p, view); });
  }
  return std::any_of(paths.begin(), paths.end(),
                     [&](const ResolvedPath& p) { return pathMatches(p, view); });
}

std::string CompiledPathMatcher::describe() const {
  std::string out;
  auto add = [&out](std::string part) {
    if (!out.empty()) out += " and ";
    out += part;
  };
  if (glob_ || cwd_glob_) add("path glob \"" + glob_text_ + "\"");
  if (regex_) add("path regex \"" + regex_text_ + "\"");
  if (outside_workspace_)
    add(*outside_workspace_ ? "outside the workspace" : "inside the workspace");
  return out;
}

}  // namespace toolguard::detail
