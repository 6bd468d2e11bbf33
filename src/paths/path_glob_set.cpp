// Path globs matched together, with as little RE2 as they allow.
#include "path_glob_set.hpp"

#include <array>
#include <atomic>
#include <functional>
#include <string_view>

#include "core/lazy_regex.hpp"

namespace toolguard::detail {

namespace {

RE2::Options globOptions(bool case_sensitive) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_dot_nl(true);
  options.set_case_sensitive(case_sensitive);
  return options;
}

// One expression for all of `globs`.
std::string alternation(const std::vector<std::string>& globs, const std::string& home) {
  std::string joined;
  for (const std::string& g : globs) {
    if (!joined.empty()) joined += '|';
    joined.append("(?:").append(pathGlobToRegex(g, home)).append(")");
  }
  return "(?:" + joined + ")";
}

}  // namespace

// Held by pointer and never moved, so the patterns' writers can keep `this`.
struct PathGlobSet::Expressions {
  /// Tells this set apart from every other one made in the process (an
  /// address may be reused by a set made after this one is gone; this never).
  const std::uint64_t id = nextId();
  std::vector<std::string> all;
  std::string home;
  bool any_others = false;  ///< a glob is not `*SUFFIX`
  // The globs that are not `*SUFFIX`, picked out again only when their
  // expression is compiled (a hook never compiles it).
  std::vector<std::string> others() const {
    std::vector<std::string> out;
    for (const std::string& g : all) {
      if (!suffixOfNameGlob(g)) out.push_back(g);
    }
    return out;
  }
  LazyRegex all_exact{[this] { return alternation(all, home); }, globOptions(true)};
  LazyRegex all_folded{[this] { return alternation(all, home); }, globOptions(false)};
  LazyRegex others_exact{[this] { return alternation(others(), home); }, globOptions(true)};
  LazyRegex others_folded{[this] { return alternation(others(), home); }, globOptions(false)};

  static std::uint64_t nextId() {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
  }
};

namespace {

// What the compiled expressions answered lately on this thread. A long-lived
// process meets the same names again and again (every tree access probes
// the same named places; agents read and write the same files), and a
// match of a long alternation costs a thousand instructions or more. An
// answer is kept under the set's id, the expression and the whole name, so
// it is only ever given again for exactly that question. A thread that
// matches holds at most 1,024 names of up to 256 bytes (a longer name is
// matched each time): about 100 KB for everyday paths, 300 KB at most.
class MatchMemo {
 public:
  static constexpr size_t kSlots = 1024;
  static constexpr size_t kMaxName = 256;

  /// The expression's answer for `name`: the one kept under (`key`, `name`)
  /// if there is one, else `match()`'s, kept.
  template <typename Match>
  bool answer(std::uint64_t key, std::string_view name, Match match) {
    Slot& slot =
        slots_[(std::hash<std::string_view>{}(name) ^ (key * 0x9e3779b97f4a7c15u)) % kSlots];
    if (slot.key == key && slot.name == name) return slot.matched;
    const bool matched = match();
    if (name.size() <= kMaxName) {
      slot.key = key;
      slot.name.assign(name);
      slot.matched = matched;
    }
    return matched;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;  // 0: empty (ids start at 1)
    std::string name;
    bool matched = false;
  };
  std::array<Slot, kSlots> slots_;
};

}  // namespace

PathGlobSet::PathGlobSet(std::vector<std::string> globs, std::string home) {
  if (globs.empty()) return;
  std::vector<std::string> literals;
  bool others = false;
  bool filtered = true;  // every other glob so far requires a literal
  for (const std::string& g : globs) {
    ascii_globs_ = ascii_globs_ && !hasNonAscii(g);
    if (std::optional<std::string> suffix = suffixOfNameGlob(g)) {
      suffixes_.push_back(std::move(*suffix));
    } else {
      others = true;
      // One glob that requires no literal turns the filter off: the others'
      // literals are then not worked out.
      if (filtered) {
        literals.push_back(requiredPathGlobLiteral(g, home));
        filtered = !literals.back().empty();
      }
    }
  }
  if (others && filtered) others_filter_ = GlobLiteralFilter(std::move(literals));
  auto expressions = std::make_unique<Expressions>();
  expressions->all = std::move(globs);
  expressions->home = std::move(home);
  expressions->any_others = others;
  globs_ = std::move(expressions);
}

const std::vector<std::string>& PathGlobSet::globs() const {
  static const std::vector<std::string> none;
  return globs_ ? globs_->all : none;
}

PathGlobSet::PathGlobSet() = default;
PathGlobSet::~PathGlobSet() = default;

PathGlobSet::PathGlobSet(PathGlobSet&& other) noexcept {
  *this = std::move(other);
}

PathGlobSet& PathGlobSet::operator=(PathGlobSet&& other) noexcept {
  suffixes_ = std::move(other.suffixes_);
  others_filter_ = std::move(other.others_filter_);
  ascii_globs_ = other.ascii_globs_;
  globs_ = std::move(other.globs_);
  uses_.store(other.uses_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  return *this;
}

bool PathGlobSet::fullMatch(std::string_view name, Which which, bool remember) const {
  // The globs were checked at load: should one still not compile, get()
  // throws, and a rule that throws denies.
  const LazyRegex* expressions[] = {&globs_->all_exact, &globs_->all_folded, &globs_->others_exact,
                                    &globs_->others_folded};
  if (!remember) return RE2::FullMatch(name, expressions[which]->get());
  thread_local MatchMemo memo;
  return memo.answer(globs_->id * 4 + static_cast<std::uint64_t>(which), name,
                     [&] { return RE2::FullMatch(name, expressions[which]->get()); });
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
    return fullMatch(name, fold ? kAllNoCase : kAll, true);
  }
  uses_.fetch_add(1, std::memory_order_relaxed);
  for (const std::string& suffix : suffixes_) {
    if (lastComponentEndsWith(name, suffix, fold)) return true;
  }
  return globs_->any_others && others_filter_.mayMatch(name, fold) &&
         fullMatch(name, fold ? kOthersNoCase : kOthers);
}

}  // namespace toolguard::detail
