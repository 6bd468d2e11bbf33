#pragma once
// Internal: a Codex `prefix_rule` pattern, matched the way Codex's execpolicy
// matches it, and read as toolguard shell matchers (docs/formats/codex-rules.md).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {

/// A prefix_rule pattern: each position holds its alternatives (at least one).
struct CodexPattern {
  std::vector<std::vector<std::string>> tokens;

  /// The pattern as Codex renders it: `git [push|fetch]`.
  std::string text() const;

  /// The shortest command it matches, taking the first alternative everywhere.
  std::vector<std::string> firstPrefix() const;
};

/// `host_executable(name = ..., paths = [...])` entries: the absolute paths
/// (`~/` expanded) a command name may be run from and still meet its rules.
using CodexHostExecutables = std::map<std::string, std::vector<std::string>, std::less<>>;

/// True when Codex matches the argument list against the pattern, as Codex
/// runs its rules (host-executable resolution on): every pattern token equals
/// the word at its position (or one of its alternatives), extra words follow
/// freely; a first word that is an absolute path not matched as written is
/// tried by its base name, unless host_executable lists other paths for it.
bool codexMatches(const CodexPattern& pattern, const std::vector<std::string>& argv,
                  const CodexHostExecutables& hosts);

/// toolguard's reading of an `allow` rule: token patterns (each alternative
/// combination while there are at most kMaxTokenPatterns) with the command
/// name and every word checked exactly by a regex on the words. The command
/// name must be written as in the pattern (no base-name resolution), and
/// words only known at run time never meet a pattern token. Alternatives no
/// command can meet (an empty word, a name ending in `/`) are left out and
/// described in `dropped`; nullopt when nothing is left.
std::optional<ShellMatcher> allowMatcher(const CodexPattern& pattern, const SourceLocation& where,
                                         std::vector<std::string>& dropped);

/// toolguard's reading of a `prompt` or `forbidden` rule: a regex on the
/// words of every simple command, where a first token without `/` also
/// matches the command run by any absolute path (`/usr/bin/rm` for `rm`).
ShellMatcher restrictingMatcher(const CodexPattern& pattern, const SourceLocation& where);

/// At most this many token patterns spell out an allow rule's alternatives.
inline constexpr size_t kMaxTokenPatterns = 64;

}  // namespace toolguard::detail
