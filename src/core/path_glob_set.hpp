#pragma once
// Internal: a list of path globs matched as one, with as little RE2 as the
// globs allow: `*.md`-shaped globs by the name's ending, the others only when
// the name holds one of their literals (compiled on first such use).

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "glob.hpp"
#include "lazy_regex.hpp"
#include "toolguard/source_location.hpp"

namespace toolguard::detail {

/// Path globs (pathGlobToRegex's dialect) matched together.
class PathGlobSet {
 public:
  /// Matches answered without RE2 before the compiled expression takes over.
  static constexpr std::uint32_t kWarmUses = 1024;

  PathGlobSet() = default;
  PathGlobSet(PathGlobSet&& other) noexcept;
  PathGlobSet& operator=(PathGlobSet&& other) noexcept;
  /// Checks the globs (a bad bracket class is a PolicyError at `where`) and
  /// appends them, as `"a", "b"`, to `text`.
  PathGlobSet(const std::vector<std::string>& globs, const std::string& home,
              const SourceLocation& where, std::string_view what, std::string& text);

  bool empty() const { return empty_; }
  /// True when one glob matches the whole `name` (ignoring case when `fold`).
  bool matches(std::string_view name, bool fold) const;

 private:
  bool empty_ = true;
  std::vector<std::string> suffixes_;  ///< globs `*SUFFIX`
  std::unique_ptr<LazyRegex> others_;  ///< the other globs
  std::unique_ptr<LazyRegex> others_nocase_;
  GlobLiteralFilter others_filter_;
  std::unique_ptr<LazyRegex> all_;         ///< every glob: once warm, one DFA is faster
  std::unique_ptr<LazyRegex> all_nocase_;  ///< and for names RE2 alone can fold
  /// Matches so far: a long-lived process (--batch, serve, an embedder)
  /// switches to the compiled expression after kWarmUses; a hook never does.
  mutable std::atomic<std::uint32_t> uses_{0};
  /// False when a glob has a byte outside ASCII: RE2 folds some of those to
  /// ASCII letters (the Kelvin sign to k), so ignoring case only RE2 is sure.
  bool ascii_globs_ = true;
};

}  // namespace toolguard::detail
