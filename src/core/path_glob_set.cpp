// Path globs matched together, with as little RE2 as they allow.
#include "path_glob_set.hpp"

#include <stdexcept>

namespace toolguard::detail {

struct PathGlobSet::Expressions {
  std::vector<std::string> all;
  std::vector<std::string> others;  ///< the globs that are not `*SUFFIX`
  std::string home;
  std::once_flag once[4];
  std::unique_ptr<RE2> compiled[4];

  const RE2& get(Which which) {
    std::call_once(once[which], [&] {
      const std::vector<std::string>& globs = which == kAll || which == kAllNoCase ? all : others;
      std::string joined;
      for (const std::string& g : globs) {
        if (!joined.empty()) joined += '|';
        joined.append("(?:").append(pathGlobToRegex(g, home)).append(")");
      }
      RE2::Options options;
      options.set_log_errors(false);
      options.set_dot_nl(true);
      options.set_case_sensitive(which == kAll || which == kOthers);
      compiled[which] = std::make_unique<RE2>("(?:" + joined + ")", options);
    });
    // The globs were checked at load: a failure here is a bug, and a rule
    // that throws denies.
    if (!compiled[which]->ok()) {
      throw std::runtime_error("the pattern '" + compiled[which]->pattern() +
                               "' does not compile: " + compiled[which]->error());
    }
    return *compiled[which];
  }
};

PathGlobSet::PathGlobSet(std::vector<std::string> globs, std::string home, std::string& text) {
  if (globs.empty()) return;
  std::vector<std::string> literals;
  auto expressions = std::make_unique<Expressions>();
  for (const std::string& g : globs) {
    if (!text.empty()) text += "\", \"";
    text += g;
    ascii_globs_ = ascii_globs_ && !hasNonAscii(g);
    if (std::optional<std::string> suffix = suffixOfNameGlob(g)) {
      suffixes_.push_back(std::move(*suffix));
    } else {
      expressions->others.push_back(g);
      literals.push_back(requiredPathGlobLiteral(g, home));
    }
  }
  has_others_ = !expressions->others.empty();
  if (has_others_) others_filter_ = GlobLiteralFilter(literals);
  expressions->all = std::move(globs);
  expressions->home = std::move(home);
  globs_ = std::move(expressions);
}

PathGlobSet::PathGlobSet() = default;
PathGlobSet::~PathGlobSet() = default;

PathGlobSet::PathGlobSet(PathGlobSet&& other) noexcept {
  *this = std::move(other);
}

PathGlobSet& PathGlobSet::operator=(PathGlobSet&& other) noexcept {
  suffixes_ = std::move(other.suffixes_);
  others_filter_ = std::move(other.others_filter_);
  has_others_ = other.has_others_;
  ascii_globs_ = other.ascii_globs_;
  globs_ = std::move(other.globs_);
  uses_.store(other.uses_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  return *this;
}

bool PathGlobSet::fullMatch(std::string_view name, Which which) const {
  return RE2::FullMatch(name, globs_->get(which));
}

bool PathGlobSet::matches(std::string_view name, bool fold) const {
  if (empty()) return false;
  // A name outside ASCII (RE2 reads UTF-8, and folds more than ASCII), or
  // folding with a glob outside ASCII: only the whole expression can say.
  if (hasNonAscii(name) || (fold && !ascii_globs_)) {
    return fullMatch(name, fold ? kAllNoCase : kAll);
  }
  // Both ways give the same answer (GlobSuffix and GlobLiteral tests); a
  // process that matches often pays the compilation once for a faster match.
  if (uses_.load(std::memory_order_relaxed) >= kWarmUses) {
    return fullMatch(name, fold ? kAllNoCase : kAll);
  }
  uses_.fetch_add(1, std::memory_order_relaxed);
  for (const std::string& suffix : suffixes_) {
    if (lastComponentEndsWith(name, suffix, fold)) return true;
  }
  return has_others_ && others_filter_.mayMatch(name, fold) &&
         fullMatch(name, fold ? kOthersNoCase : kOthers);
}

}  // namespace toolguard::detail
