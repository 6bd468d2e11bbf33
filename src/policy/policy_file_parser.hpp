#pragma once
// Internal: the reader of toolguard policy files (YAML) into PolicyDocument,
// with file:line:column errors. Its parts are in policy_parser.cpp (the
// document and value readers), policy_settings_parser.cpp (paths, limits,
// llm, rate limits, tools), policy_matcher_parser.cpp (argument, shell and
// path matchers) and policy_rule_parser.cpp (rules, cases, examples).

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "core/glob.hpp"
#include "policy/did_you_mean.hpp"
#include "policy/doc_node_yaml.hpp"
#include "policy_document.hpp"
#include "toolguard/json_schema.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"
#include "yaml_json.hpp"

namespace toolguard::detail {

/// What a mapping read as a rule is: a `rules:` entry, a first_match case,
/// a `labels:` entry, or the call an `after:` condition names.
enum class RuleEntry { Rule, Case, Label, AfterCall };

// Where string examples resolve relative paths; documented in docs/policy-files.md.
inline constexpr const char* kExampleCwd = "/workspace";

/// Reads one policy file's document tree; every error is collected and
/// thrown together as one PolicyError.
class PolicyFileParser {
 public:
  PolicyFileParser(std::string name, PolicyLayer layer, const ToolCatalog& catalog,
                   bool read_examples = true, TreeChecks checks = TreeChecks::All)
      : name_(std::move(name)),
        layer_(layer),
        catalog_(catalog),
        read_examples_(read_examples),
        checks_(checks) {}

  PolicyDocument parse(const DocNode& root);

 private:
  SourceLocation where(const DocNode& node) const { return locationOf(node, name_); }

  void error(const DocNode& node, std::string message);

  void finish();

  // Map entries in order, reporting duplicate keys and non-scalar keys.
  // Whether `key` is among the keys read so far. A mapping of a policy has a
  // handful of keys, which a scan finds faster than a set; a large one (a
  // file written to slow the guard down) gets a hash set.
  static bool isDuplicate(const std::vector<std::pair<const DocNode&, const DocNode&>>& read,
                          std::string_view key, std::unordered_set<std::string_view>& large);

  std::vector<std::pair<const DocNode&, const DocNode&>> entries(const DocNode& map);

  std::optional<std::string> scalar(const DocNode& node, const std::string& what);

  std::vector<std::string> strings(const DocNode& node, const std::string& what);

  std::optional<bool> boolean(const DocNode& node, const std::string& what);

  template <typename T>
  std::optional<T> named(const DocNode& node, const std::string& what,
                         std::optional<T> (*parse)(std::string_view), const char* expected) {
    auto text = scalar(node, what);
    if (!text) return std::nullopt;
    auto value = parse(*text);
    if (!value) error(node, unknownNameMessage(what + ": unknown value", *text, "", expected));
    return value;
  }

  std::optional<Verdict> verdict(const DocNode& node, const std::string& what);

  void parsePathSettings(const DocNode& node, PolicyDocument& doc);

  std::optional<size_t> count(const DocNode& node, const std::string& what, size_t low,
                              size_t high);

  void parseLimits(const DocNode& node, PolicyDocument& doc);

  // llm: the LLM validator for escalated calls (docs/llm-validator.md).
  void parseLlm(const DocNode& node, PolicyDocument& doc);
  void parseSandbox(const DocNode& node, PolicyDocument& doc);

  // `window: 60s`: a whole number with ms, s, m or h.
  std::optional<std::chrono::milliseconds> duration(const DocNode& node, const std::string& what);

  void parseRateLimits(const DocNode& node, PolicyDocument& doc);

  void parseTools(const DocNode& node, PolicyDocument& doc);

  ValueMatcher valueMatcher(const DocNode& node, const std::string& what);

  std::vector<std::pair<std::string, ValueMatcher>> namedMatchers(const DocNode& node,
                                                                  const std::string& what);

  // shell: "git push *" | [patterns] | {command: ..., regex: ..., writes: ...}
  ShellMatcher shellMatcher(const DocNode& node);
  ContentMatcher contentMatcher(const DocNode& node);

  // A path glob that can never match a path as toolguard compares them
  // (absolute, with `.` and `..` resolved) is an error, not a silent gap.
  void checkPathGlobs(const DocNode& node, const std::vector<std::string>& globs);

  PathMatcher pathMatcher(const DocNode& node);

  // The tool a string example is a call of: the rule's first exact tool name,
  // else a catalog tool of the rule's first kind.
  const ToolInfo* exampleTool(const RuleSpec& rule);

  std::optional<RuleExample> example(const DocNode& node, const RuleSpec& rule, bool should_match);

  void exampleContext(const DocNode& node, CallContext& context);

  void parseExamples(const DocNode& node, RuleSpec& rule);

  void parseRules(const DocNode& node, PolicyDocument& doc);

  // One key a rule and a first_match case share (target, conditions, verdict,
  // reason); false when `key` is not one of them.
  bool ruleField(std::string_view key, const DocNode& v, RuleSpec& rule, bool& has_verdict);
  void ruleSandbox(const DocNode& v, RuleSpec& rule);

  // A `rules:` entry, a first_match case, a `labels:` entry (its label in
  // `label`) or an after call (policy_rule_parser.cpp).
  RuleSpec parseRule(const DocNode& item, RuleEntry kind, std::string* label = nullptr);

  // Sessions (policy_session_parser.cpp): `labels:`, a rule's `after:`,
  // `sessions:`.
  void parseLabels(const DocNode& node, PolicyDocument& doc);
  void ruleAfter(const DocNode& node, RuleSpec& rule, bool is_case);
  void parseSessions(const DocNode& node, PolicyDocument& doc);
  void checkLabelName(const DocNode& node, const std::string& label, const std::string& what);
  // The label rules of `after: {call: ...}` conditions, given to the document at the end.
  std::vector<LabelSpec> after_labels_;

  void parseCases(const DocNode& node, RuleSpec& rule);

  std::string name_;
  PolicyLayer layer_;
  const ToolCatalog& catalog_;
  bool read_examples_ = true;
  TreeChecks checks_ = TreeChecks::All;
  ToolCatalog local_catalog_;                        // the catalog and this file's tools
  const ToolCatalog* examples_catalog_ = &catalog_;  // what string examples call
  std::vector<PolicyDiagnostic> errors_;
};

}  // namespace toolguard::detail
