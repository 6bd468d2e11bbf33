// The calls of a Codex rules file and their arguments, checked as Codex's
// execpolicy parser checks them (codex-rs/execpolicy/src/parser.rs).
#include "foreign_policy/codex_calls.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "foreign_policy/shell_words.hpp"

namespace toolguard::detail {
namespace {

// Collects the problems of one call.
class CallChecker {
 public:
  // Problems found from now on count as this call's.
  CallChecker(const StarlarkCall& call, std::vector<PolicyDiagnostic>& errors)
      : call_(call), errors_(errors), before_(errors.size()) {}

  // Reports positional arguments, unknown names and missing required ones.
  void arguments(const std::vector<std::string>& known, const std::vector<std::string>& required) {
    std::string expected;
    for (const std::string& k : known) expected += (expected.empty() ? "" : ", ") + k;
    bool positional = false;
    for (const StarlarkArgument& a : call_.arguments) {
      positional = positional || a.name.empty();
      if (a.name.empty()) {
        error(a.where, "positional arguments are not supported; name each one (" + expected + ")");
      } else if (std::find(known.begin(), known.end(), a.name) == known.end()) {
        error(a.where, "unknown argument '" + a.name + "' (expected " + expected + ")");
      }
    }
    for (const std::string& r : required) {
      if (!positional && find(r) == nullptr) error(call_.where, r + " is required");
    }
  }

  // The argument of that name, or nullptr.
  const StarlarkValue* find(const std::string& name) const {
    for (const StarlarkArgument& a : call_.arguments) {
      if (a.name == name) return &a.value;
    }
    return nullptr;
  }

  // A string argument (nullopt if absent or not a string, which is reported).
  std::optional<std::string> string(const std::string& name) {
    const StarlarkValue* v = find(name);
    if (v == nullptr) return std::nullopt;
    if (!v->isString()) {
      error(v->where, name + ": expected a string");
      return std::nullopt;
    }
    return v->text;
  }

  // A non-blank justification, when given.
  std::optional<std::string> justification() {
    auto j = string("justification");
    if (j && std::all_of(j->begin(), j->end(), [](unsigned char c) { return std::isspace(c); })) {
      error(find("justification")->where, "justification cannot be empty");
      return std::nullopt;
    }
    return j;
  }

  // Reports a problem, prefixed with the function's name.
  void error(const SourceLocation& where, const std::string& message) {
    errors_.push_back({where, call_.function + ": " + message});
  }

  // True when this call had a problem.
  bool failed() const { return errors_.size() > before_; }

 private:
  const StarlarkCall& call_;
  std::vector<PolicyDiagnostic>& errors_;
  size_t before_;
};

// `pattern = ["cmd", ["alt1", "alt2"], ...]`.
std::optional<CodexPattern> pattern(CallChecker& check, const StarlarkValue& v) {
  if (!v.isList()) {
    check.error(v.where, "pattern: expected a list");
    return std::nullopt;
  }
  if (v.items.empty()) check.error(v.where, "pattern cannot be empty");
  CodexPattern p;
  for (const StarlarkValue& item : v.items) {
    if (item.isString()) {
      p.tokens.push_back({item.text});
      continue;
    }
    if (item.items.empty()) check.error(item.where, "pattern alternatives cannot be empty");
    std::vector<std::string> alts;
    for (const StarlarkValue& alt : item.items) {
      if (!alt.isString()) {
        check.error(alt.where, "a pattern alternative must be a string");
      } else if (std::find(alts.begin(), alts.end(), alt.text) == alts.end()) {
        alts.push_back(alt.text);
      }
    }
    p.tokens.push_back(std::move(alts));
  }
  return p;
}

// One example: a string (split like shlex) or a list of strings.
std::optional<std::vector<std::string>> exampleWords(CallChecker& check, const StarlarkValue& v) {
  if (v.isString()) {
    auto words = shlexSplit(v.text);
    if (!words) {
      check.error(v.where, "example string has invalid shell syntax");
    } else if (words->empty()) {
      check.error(v.where, "example cannot be an empty string");
    } else {
      return words;
    }
    return std::nullopt;
  }
  if (v.items.empty()) check.error(v.where, "example cannot be an empty list");
  std::vector<std::string> words;
  for (const StarlarkValue& w : v.items) {
    if (!w.isString()) {
      check.error(w.where, "example tokens must be strings");
      return std::nullopt;
    }
    words.push_back(w.text);
  }
  return words;
}

// `match = [...]` or `not_match = [...]`.
void examples(CallChecker& check, const std::string& name, bool should_match,
              CodexPrefixRule& rule) {
  const StarlarkValue* v = check.find(name);
  if (v == nullptr) return;
  if (!v->isList()) {
    check.error(v->where, name + ": expected a list of examples");
    return;
  }
  for (const StarlarkValue& item : v->items) {
    if (auto words = exampleWords(check, item)) {
      rule.examples.push_back(CodexExample{std::move(*words), should_match, item.where});
    }
  }
}

// prefix_rule(pattern, decision = "allow", justification, match, not_match).
void prefixRule(const StarlarkCall& call, CodexFile& file, std::vector<PolicyDiagnostic>& errors) {
  CallChecker check(call, errors);
  check.arguments({"pattern", "decision", "justification", "match", "not_match"}, {"pattern"});
  CodexPrefixRule rule;
  rule.where = call.where;
  if (const StarlarkValue* p = check.find("pattern")) {
    rule.pattern_where = p->where;
    if (auto parsed = pattern(check, *p)) rule.pattern = std::move(*parsed);
  }
  if (auto d = check.string("decision")) {
    if (*d != "allow" && *d != "prompt" && *d != "forbidden") {
      check.error(check.find("decision")->where,
                  "decision must be allow, prompt or forbidden (got '" + *d + "')");
    }
    rule.decision = *d;
  }
  rule.justification = check.justification();
  examples(check, "match", true, rule);
  examples(check, "not_match", false, rule);
  if (!check.failed()) file.rules.push_back(std::move(rule));
}

// host_executable(name, paths): the absolute paths a base name may run from.
void hostExecutable(const StarlarkCall& call, CodexFile& file,
                    std::vector<PolicyDiagnostic>& errors) {
  CallChecker check(call, errors);
  check.arguments({"name", "paths"}, {"name", "paths"});
  const auto name = check.string("name");
  if (name &&
      (name->empty() || name->find('/') != std::string::npos || *name == "." || *name == "..")) {
    check.error(check.find("name")->where, "name must be a bare executable name");
  }
  std::vector<std::string> paths;
  if (const StarlarkValue* v = check.find("paths"); v != nullptr && !v->isList()) {
    check.error(v->where, "paths: expected a list of strings");
  } else if (v != nullptr) {
    for (const StarlarkValue& p : v->items) {
      const std::string base = p.text.substr(p.text.rfind('/') + 1);
      if (!p.isString()) {
        check.error(p.where, "paths must be strings");
      } else if (!p.text.starts_with('/') && !p.text.starts_with("~/")) {
        check.error(p.where, "paths must be absolute or start with ~/ (got '" + p.text + "')");
      } else if (name && base != *name) {
        check.error(p.where, "path '" + p.text + "' must have the base name '" + *name + "'");
      } else if (std::find(paths.begin(), paths.end(), p.text) == paths.end()) {
        paths.push_back(p.text);
      }
    }
  }
  if (check.failed()) return;
  file.hosts[*name] = std::move(paths);
  file.notes.push_back(
      {call.where,
       "host_executable(" + *name +
           ") has no toolguard counterpart and is not needed: toolguard's reading of an allow "
           "rule matches the command name only as written, and of a prompt or forbidden rule "
           "matches it run by any absolute path"});
}

// network_rule(host, protocol, decision, justification): Codex's network proxy.
void networkRule(const StarlarkCall& call, CodexFile& file, std::vector<PolicyDiagnostic>& errors) {
  CallChecker check(call, errors);
  check.arguments({"host", "protocol", "decision", "justification"},
                  {"host", "protocol", "decision"});
  const auto host = check.string("host");
  if (host && host->find_first_not_of(" \t\n") == std::string::npos) {
    check.error(check.find("host")->where, "host cannot be empty");
  }
  static const std::set<std::string, std::less<>> kProtocols = {
      "http", "https", "https_connect", "http-connect", "socks5_tcp", "socks5_udp"};
  if (auto p = check.string("protocol"); p && kProtocols.count(*p) == 0) {
    check.error(check.find("protocol")->where,
                "protocol must be one of http, https, socks5_tcp, socks5_udp (got '" + *p + "')");
  }
  static const std::set<std::string, std::less<>> kDecisions = {"allow", "prompt", "forbidden",
                                                                "deny", "ask"};
  const auto decision = check.string("decision");
  if (decision && kDecisions.count(*decision) == 0) {
    check.error(check.find("decision")->where,
                "decision must be allow, prompt, forbidden or deny (got '" + *decision + "')");
  }
  check.justification();
  if (check.failed()) return;
  const bool blocks = *decision != "allow";
  file.notes.push_back(
      {call.where, "network_rule(" + *host + ") is not imported: it tells Codex's network proxy " +
                       "which hosts sandboxed commands may reach, which toolguard does not see" +
                       (blocks ? "; toolguard does not enforce this " + *decision + " rule" : "")});
}

}  // namespace

// Dispatches each call on its function's name.
CodexFile readCodexCalls(const std::vector<StarlarkCall>& calls,
                         std::vector<PolicyDiagnostic>& errors) {
  CodexFile file;
  for (const StarlarkCall& call : calls) {
    if (call.function == "prefix_rule") {
      prefixRule(call, file, errors);
    } else if (call.function == "host_executable") {
      hostExecutable(call, file, errors);
    } else if (call.function == "network_rule") {
      networkRule(call, file, errors);
    } else {
      errors.push_back({call.where, "unknown function '" + call.function +
                                        "' (expected prefix_rule, host_executable or "
                                        "network_rule)"});
    }
  }
  return file;
}

}  // namespace toolguard::detail
