#pragma once
// Internal: a regular expression compiled the first time it is used, so that
// loading a policy costs nothing for the rules a call never reaches.

#include <re2/re2.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace toolguard::detail {

/// An RE2 pattern compiled on first use (once, thread-safe). The pattern must
/// already be known to be valid (translated from a checked glob, or compiled
/// once at load): should compiling still fail, get() throws, and a rule that
/// throws denies.
class LazyRegex {
 public:
  LazyRegex(std::string pattern, RE2::Options options)
      : pattern_(std::move(pattern)), options_(options) {}
  /// The pattern itself is written on first use too (translating many globs
  /// costs more than a process that never needs them should pay).
  LazyRegex(std::function<std::string()> write_pattern, RE2::Options options)
      : write_pattern_(std::move(write_pattern)), options_(options) {}
  LazyRegex(const LazyRegex&) = delete;
  LazyRegex& operator=(const LazyRegex&) = delete;

  /// The compiled expression.
  const RE2& get() const;

  /// The same pattern, ignoring case (for case-folding file systems), itself lazy.
  std::unique_ptr<LazyRegex> ignoringCase() const;

 private:
  mutable std::string pattern_;
  std::function<std::string()> write_pattern_;
  RE2::Options options_;
  mutable std::once_flag once_;
  mutable std::unique_ptr<RE2> compiled_;
};

/// True when `text` matches the whole of `re` (a null `re` matches nothing).
inline bool fullMatch(std::string_view text, const std::unique_ptr<LazyRegex>& re) {
  return re != nullptr && RE2::FullMatch(text, re->get());
}

}  // namespace toolguard::detail
