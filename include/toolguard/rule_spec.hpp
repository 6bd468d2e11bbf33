#pragma once
// Declarative rules: what a policy file's `rules:` entry and the fluent builder
// both describe. compileRule() turns one into a Rule.

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "toolguard/rule.hpp"

namespace toolguard {

/// Where a URL must lead for ValueMatcher::web_url to hold.
enum class WebUrlKind {
  Public,    ///< http(s) to a public DNS name: no IP literal, private or reserved name, user info
  Loopback,  ///< http(s) to localhost, 127.0.0.1, [::1] or 0.0.0.0, at most a numeric port
};

/// A test on one value (an argument, the command, a path, a context field).
/// Every condition that is set must hold. Lists match when any element does.
struct ValueMatcher {
  std::optional<nlohmann::json> equals;  ///< JSON equality (strings compare exactly)
  std::vector<nlohmann::json> one_of;    ///< equal to any of these
  std::vector<std::string> glob;         ///< any of these; `*` any run, `?` one character
  std::vector<std::string> regex;        ///< any of these RE2 patterns, matching the whole value
  std::optional<WebUrlKind> web_url;     ///< a string that is an http(s) URL leading there
  SourceLocation where;

  static ValueMatcher Equals(nlohmann::json value);
  static ValueMatcher Glob(std::string pattern);
  static ValueMatcher Regex(std::string pattern);
};

/// A test on the paths a call touches (the tool's path arguments, made
/// absolute against the call's cwd). Path globs are gitignore-like: `*` and `?`
/// stay inside one path component, `**` crosses components, a leading `~/` is
/// the home directory, and a pattern without a leading `/` matches at any depth
/// (`.ssh/**`, `*.pem`). Matches when any path of the call matches.
struct PathMatcher {
  std::vector<std::string> glob;          ///< any of these path globs
  std::vector<std::string> regex;         ///< any of these RE2 patterns on the absolute path
  std::optional<bool> outside_workspace;  ///< true: some path is outside every workspace root
  /// Path globs of places this matcher leaves out: a path every form of
  /// which matches one of them does not match (`/dev/null` for a rule about
  /// writing system files).
  std::vector<std::string> except;
  SourceLocation where;
};

/// A test on each simple command of a shell tool's program (policy `shell:`).
/// Every list that is set must have a matching entry; a rule with one judges
/// each simple command on its own (see Rule::judgesShellCommands).
struct ShellMatcher {
  /// Token patterns such as `git push *` or `npm run test *`: the first token
  /// matches the command name, each other token one word (`*` and `?` globs
  /// within the word); a final lone `*` matches any remaining words. Never
  /// matches a command with a run-time name or one run from an unusual place.
  std::vector<std::string> tokens;
  std::vector<std::string> regex;   ///< RE2 on the words joined by single spaces (whole match)
  std::vector<std::string> writes;  ///< path globs on the paths the command writes
  SourceLocation where;
};

/// A test on everything a call says: every string of its arguments at any
/// depth (values and object keys) and, for a shell tool, every word of its
/// parsed program as the shell will see it (`pro''d-db` is `prod-db`).
/// Matches when any of those strings holds any term or pattern (policy
/// `content:`), so "abort when any argument mentions X" is one rule.
struct ContentMatcher {
  /// Terms found anywhere in a string, ASCII case-insensitively, after
  /// invisible format characters (zero-width spaces and joiners, soft
  /// hyphens, byte order marks) are taken out of the string.
  std::vector<std::string> contains;
  std::vector<std::string> regex;  ///< RE2 patterns found anywhere in a string (not anchored)
  SourceLocation where;
};

/// A condition on what the call's session did before it (policy `after:`):
/// an earlier call (or result) of the session carries `label`, at most
/// `within_calls` calls back and `within_time` ago when those are set.
/// Holds only when the call's session is known (CallContext::session_state).
struct SessionCondition {
  std::string label;
  size_t within_calls = 0;              ///< 0: any number of calls back
  std::chrono::seconds within_time{0};  ///< 0: any time ago (within the session)
  SourceLocation where;
};

/// A declarative rule.
struct RuleSpec {
  RuleHeader header;                    ///< id, source, layer, target (tools, categories, kinds)
  std::optional<RiskLevel> risk_above;  ///< only tools whose risk is above this (`max_risk`)
  std::vector<std::pair<std::string, ValueMatcher>> args;  ///< argument name or JSON pointer
  /// Closed-world arguments (`only_args`): when set, the call may have no
  /// top-level argument outside this list (each listed one may be missing).
  std::optional<std::vector<std::string>> only_args;
  /// `sandbox: required`: the rule holds only for a call that runs in
  /// toolguard's sandbox with no network (CallContext::confined, which
  /// `check --sandbox` sets for a shell call on a kernel that holds it all).
  bool only_confined = false;
  /// What the rule's own `sandbox:` adds for the calls it allows (allow
  /// rules only): places they may write and hosts they may reach through
  /// the proxy, besides the policy's `sandbox:` section (sandboxSettingsFor).
  std::vector<std::string> sandbox_writable;
  std::vector<std::string> sandbox_hosts;
  std::optional<ValueMatcher> command;    ///< the shell command text of a shell tool
  std::optional<PathMatcher> path;        ///< the paths the call touches
  std::optional<ShellMatcher> shell;      ///< each simple command of a shell program
  std::optional<ContentMatcher> content;  ///< any string of the call (`content:`)
  /// Whether the call is shown to keep what it is given on this machine
  /// (`local:`). A shell tool's commands are judged one by one: local only
  /// when ordinary work of a program that reaches no other machine and runs
  /// no workspace code (docs/sessions.md); other tools by their metadata
  /// (no side effect, a local read or write). `false` matches every call or
  /// command not shown local, so a label or rule built on it is closed-world.
  std::optional<bool> local;
  std::vector<std::pair<std::string, ValueMatcher>>
      context;  ///< agent, session, model, role, mode, cwd
  /// What the session must have done before (`after:`); every one must hold.
  std::vector<SessionCondition> after;
  Verdict verdict = Verdict::Deny;
  std::string reason;
  std::vector<RuleExample> examples;
  /// Ordered cases (policy `first_match:`). When set, the rule's finding is
  /// the first case, in order, whose target selects the call and whose
  /// conditions hold; the rule's own conditions, verdict and reason are not
  /// used. For a shell program each simple command is judged on its own: a
  /// case with `shell` tests that command, a case without tests the call.
  /// Other agents' ordered rule lists (guard plugins, priorities) use it.
  std::vector<RuleSpec> first_match;
};

/// Compiles a rule spec (RE2 patterns, globs). Throws PolicyError naming the
/// matcher's location for a bad pattern, an unknown context field, or a verdict
/// that cannot come from a rule.
std::shared_ptr<const Rule> compileRule(RuleSpec spec);

}  // namespace toolguard
