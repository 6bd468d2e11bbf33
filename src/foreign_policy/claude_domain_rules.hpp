#pragma once
// Internal: Claude Code `WebFetch(domain:...)` rules as a matcher on the URL.

#include <string>

#include "foreign_policy/claude_rule_text.hpp"

namespace toolguard::detail {

/// `WebFetch(domain:host)`: the URL's host is `host` (case-insensitive, a
/// trailing dot ignored); `*.host` is any subdomain at any depth but not
/// `host` itself; another `*` stays within one label; `*` is every host.
/// Throws PolicyError (at rule.where) for a host pattern it cannot read.
ClaudeMapping mapWebFetchDomain(const std::string& host, const ClaudeRuleContext& rule);

/// RE2 (whole match) on a URL whose host matches `host` as above. A
/// restricting regex also catches the spellings a URL parser folds into that
/// host (tabs and newlines, percent escapes, non-ASCII characters), which an
/// allowing one never accepts.
std::string urlHostRegex(const std::string& host, bool restricting);

}  // namespace toolguard::detail
