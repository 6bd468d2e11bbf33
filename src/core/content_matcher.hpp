#pragma once
// Internal: a ContentMatcher compiled (policy `content:`).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/rule_spec.hpp"

namespace re2 {
class RE2;
}

namespace toolguard::detail {

/// Looks for terms and patterns in every string of a call.
class CompiledContentMatcher {
 public:
  /// Throws PolicyError at spec.where for a bad pattern or an empty matcher.
  explicit CompiledContentMatcher(const ContentMatcher& spec);
  ~CompiledContentMatcher();
  CompiledContentMatcher(CompiledContentMatcher&&) noexcept;

  /// Whether any string of the call's arguments (keys and values, at any
  /// depth) or any word of its shell program holds a term or a pattern.
  bool matches(const CallView& view) const;

  /// Whether one string holds a term or a pattern.
  bool matchesText(std::string_view text) const;

  /// matchesText, or a name the text expands to as a glob in `cwd`.
  bool matchesWithExpansion(const std::string& text, const std::string& cwd) const;

  /// e.g. `content contains "prod-db"`.
  std::string describe() const;

 private:
  std::vector<std::string> terms_;  ///< lowercased
  std::vector<std::string> patterns_;
  std::unique_ptr<re2::RE2> regex_;  ///< the patterns as one alternation
};

/// `text` lowercased (ASCII) with invisible format characters removed.
std::string foldedForTerms(std::string_view text);

}  // namespace toolguard::detail
