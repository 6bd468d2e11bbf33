// Claude Code `WebFetch(domain:...)` rules as a regex on the `url` argument.
//
// The regex reads the host the way a WHATWG URL parser (what Claude Code uses)
// does: after the scheme and slashes, after the last `@` of the authority,
// before a port, path, query or fragment; `\` counts as `/`.
#include "foreign_policy/claude_domain_rules.hpp"

#include <re2/re2.h>

#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// One character of a host label: never a dot or an authority delimiter.
constexpr std::string_view kLabelChar = R"([^./?#@\\:\[\]])";

// Lowercase, without one trailing dot; empty when the host has characters a
// host name pattern never has (or empty labels).
std::string normalizeHost(std::string host) {
  for (char& c : host) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (host.size() > 1 && host.back() == '.') host.pop_back();
  for (char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
                    c == '_' || c == '*';
    if (!ok) return "";
  }
  if (host.empty() || host.front() == '.' || host.back() == '.' ||
      host.find("..") != std::string::npos) {
    return "";
  }
  return host;
}

// RE2 for a normalized host pattern.
std::string hostRegex(const std::string& host) {
  std::string out;
  std::string_view rest = host;
  if (rest.starts_with("*.")) {
    out.append("(?:").append(kLabelChar).append("+\\.)+");  // any subdomain, at any depth
    rest.remove_prefix(2);
  }
  for (char c : rest) {
    if (c == '*') {
      out.append(kLabelChar).append("+");  // within one label
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
    }
  }
  return out;
}

}  // namespace

std::string urlHostRegex(const std::string& host, bool restricting) {
  const std::string tail = R"(\.?(?::[0-9]*)?)";
  const std::string userinfo = R"((?:[^/?#\\]*@)?)";
  if (!restricting) {
    return "(?i)https?://" + userinfo + hostRegex(host) + tail + R"((?:[/?#\\].*)?)";
  }
  // Leading C0 controls and spaces, tabs and newlines anywhere, any scheme and
  // any run of slashes are what a URL parser skips or accepts.
  const std::string scheme = R"([\x00-\x20]*[a-z\t\n\r][a-z0-9+.\-\t\n\r]*:[/\\\t\n\r]*)";
  const std::string main =
      scheme + userinfo + hostRegex(host) + tail + R"((?:[/?#\\].*|[\x00-\x20]*))";
  // A host with a percent escape, a tab or newline, or a non-ASCII character
  // is folded by the parser into a name the pattern cannot see: caught too.
  const std::string folded = scheme + R"([^/?#\\]*(?:%|[\t\n\r]|[^\x00-\x7f]).*)";
  return "(?i)(?:" + main + "|" + folded + ")";
}

ClaudeMapping mapWebFetchDomain(const std::string& raw_host, const ClaudeRuleContext& rule) {
  const size_t first = raw_host.find_first_not_of(' ');
  const size_t last = raw_host.find_last_not_of(' ');
  const std::string trimmed =
      first == std::string::npos ? "" : raw_host.substr(first, last - first + 1);
  if (trimmed == "*") return wholeTools({"WebFetch"});
  const std::string host = normalizeHost(trimmed);
  if (host.empty()) {
    throw PolicyError(rule.where, "'" + rule.text + "': '" + trimmed +
                                      "' is not a host name pattern (Claude Code matches the "
                                      "host name only: no scheme, port or path)");
  }
  ClaudeMapping m = wholeTools({"WebFetch"});
  ValueMatcher url = ValueMatcher::Regex(urlHostRegex(host, rule.restricts()));
  url.where = rule.where;
  m.rule->args.emplace_back("url", std::move(url));
  if (rule.restricts()) {
    m.notes.push_back(
        "toolguard also applies this rule to URLs whose host is spelled with percent escapes, "
        "tabs, newlines or non-ASCII characters, which a URL parser may fold into this host");
  }
  return m;
}

}  // namespace toolguard::detail
