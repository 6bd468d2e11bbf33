// Path globs matched together, with as little RE2 as they allow.
#include "path_glob_set.hpp"

#include "value_matcher.hpp"

namespace toolguard::detail {

PathGlobSet::PathGlobSet(const std::vector<std::string>& globs, const std::string& home,
                         const SourceLocation& where, std::string_view what, std::string& text)
    : empty_(globs.empty()) {
  auto translate = [home](const std::string& g) { return pathGlobToRegex(g, home); };
  std::vector<std::string> others;
  std::vector<std::string> literals;
  for (const std::string& g : globs) {
    ascii_globs_ = ascii_globs_ && !hasNonAscii(g);
    if (std::optional<std::string> suffix = suffixOfNameGlob(g)) {
      suffixes_.push_back(std::move(*suffix));
    } else {
      others.push_back(g);
      literals.push_back(requiredPathGlobLiteral(g, home));
    }
  }
  all_ = lazyTranslated(globs, where, what, text, translate);
  if (all_) all_nocase_ = all_->ignoringCase();
  std::string others_text;
  others_ = lazyTranslated(others, where, what, others_text, translate, /*check_classes=*/false);
  if (others_) others_nocase_ = others_->ignoringCase();
  others_filter_ = GlobLiteralFilter(literals);
}

PathGlobSet::PathGlobSet(PathGlobSet&& other) noexcept {
  *this = std::move(other);
}

PathGlobSet& PathGlobSet::operator=(PathGlobSet&& other) noexcept {
  empty_ = other.empty_;
  suffixes_ = std::move(other.suffixes_);
  others_ = std::move(other.others_);
  others_nocase_ = std::move(other.others_nocase_);
  others_filter_ = std::move(other.others_filter_);
  all_ = std::move(other.all_);
  all_nocase_ = std::move(other.all_nocase_);
  uses_.store(other.uses_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  ascii_globs_ = other.ascii_globs_;
  return *this;
}

bool PathGlobSet::matches(std::string_view name, bool fold) const {
  if (empty_) return false;
  // A name outside ASCII (RE2 reads UTF-8, and folds more than ASCII), or
  // folding with a glob outside ASCII: only the whole expression can say.
  if (hasNonAscii(name) || (fold && !ascii_globs_)) {
    return fullMatch(name, fold ? all_nocase_ : all_);
  }
  // Both ways give the same answer (GlobSuffix and GlobLiteral tests); a
  // process that matches often pays the compilation once for a faster match.
  if (uses_.load(std::memory_order_relaxed) >= kWarmUses) {
    return fullMatch(name, fold ? all_nocase_ : all_);
  }
  uses_.fetch_add(1, std::memory_order_relaxed);
  for (const std::string& suffix : suffixes_) {
    if (lastComponentEndsWith(name, suffix, fold)) return true;
  }
  return others_filter_.mayMatch(name, fold) && fullMatch(name, fold ? others_nocase_ : others_);
}

}  // namespace toolguard::detail
