#pragma once
// Internal: a list of path globs matched as one, with as little RE2 as the
// globs allow: `*.md`-shaped globs by the name's ending, the others only when
// the name holds one of their literals (compiled on first such use).

#include <re2/re2.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/glob.hpp"

namespace toolguard::detail {

/// Path globs (pathGlobToRegex's dialect) matched together.
class PathGlobSet {
 public:
  /// Matches answered without RE2 before the compiled expression takes over.
  static constexpr std::uint32_t kWarmUses = 1024;

  PathGlobSet();
  PathGlobSet(PathGlobSet&& other) noexcept;
  PathGlobSet& operator=(PathGlobSet&& other) noexcept;
  ~PathGlobSet();
  /// The globs must already be checked (CompiledPathMatcher compiles each
  /// bracket class at load, where a bad one is a PolicyError). Nothing is
  /// translated to RE2 until a match needs it.
  PathGlobSet(std::vector<std::string> globs, std::string home);

  /// The globs, as given (for descriptions).
  const std::vector<std::string>& globs() const;

  bool empty() const { return globs_ == nullptr; }
  /// True when one glob matches the whole `name` (ignoring case when `fold`).
  bool matches(std::string_view name, bool fold) const;

 private:
  /// The globs, and the expressions of every glob and of the others, each
  /// with and without case, written and compiled on first use.
  struct Expressions;
  enum Which { kAll, kAllNoCase, kOthers, kOthersNoCase };
  /// The expression's answer; `remember`: from (and into) this thread's
  /// memo of recent answers, for a set matched often.
  bool fullMatch(std::string_view name, Which which, bool remember = false) const;

  std::vector<std::string> suffixes_;  ///< globs `*SUFFIX`
  GlobLiteralFilter others_filter_;    ///< the other globs' required literals
  /// False when a glob has a byte outside ASCII: RE2 folds some of those to
  /// ASCII letters (the Kelvin sign to k), so ignoring case only RE2 is sure.
  bool ascii_globs_ = true;
  std::unique_ptr<Expressions> globs_;  ///< null when there are no globs
  /// Matches so far: a long-lived process (--batch, serve, an embedder)
  /// switches to the compiled expression after kWarmUses; a hook never does.
  mutable std::atomic<std::uint32_t> uses_{0};
};

}  // namespace toolguard::detail
