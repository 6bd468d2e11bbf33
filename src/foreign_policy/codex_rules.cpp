// Codex `.rules` files (execpolicy prefix rules) as toolguard rules: every
// prefix_rule becomes one shell rule, read the safe way where toolguard and
// Codex would differ (docs/formats/codex-rules.md).
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "foreign_policy/codex_calls.hpp"
#include "foreign_policy/codex_notes.hpp"
#include "foreign_policy/foreign_policy.hpp"
#include "foreign_policy/shell_words.hpp"
#include "toolguard/policy.hpp"

namespace toolguard::detail {
namespace {

// Where example calls run, as for policy files' string examples.
constexpr const char* kCodexExampleCwd = "/workspace";

// The file's name without directories and extension, safe for a rule id.
std::string stem(const std::string& file) {
  std::string name = file.substr(file.find_last_of("/\\") + 1);
  if (const size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
  for (char& c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) c = '-';
  }
  return name.empty() ? "rules" : name;
}

// Six hex digits of FNV-1a over the file's path: two files with the same name
// (~/.codex/rules/default.rules and a project's) must not share rule ids, or a
// later layer would replace the other file's rule instead of adding to it.
std::string pathTag(const std::string& file) {
  uint32_t h = 2166136261u;
  for (unsigned char c : file) h = (h ^ c) * 16777619u;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%06x", h & 0xFFFFFFu);
  return buf;
}

// Codex's decision as a verdict.
Verdict verdictOf(const std::string& decision) {
  if (decision == "forbidden") return Verdict::Deny;
  if (decision == "prompt") return Verdict::Ask;
  return Verdict::Allow;
}

// The reason a decision shows: the justification, else what the rule says.
std::string reasonOf(const CodexPrefixRule& rule) {
  if (rule.justification) return *rule.justification;
  const std::string what = "commands starting with `" + rule.pattern.text() + "`";
  if (rule.decision == "forbidden") return what + " are forbidden (Codex rule)";
  if (rule.decision == "prompt") return what + " need approval (Codex rule)";
  return what + " are allowed (Codex rule)";
}

// Checks the examples with Codex's own matching: a failure is a load error in
// Codex too, reported here at the example.
void checkWithCodex(const CodexPrefixRule& rule, const CodexHostExecutables& hosts,
                    std::vector<PolicyDiagnostic>& errors) {
  for (const CodexExample& ex : rule.examples) {
    if (codexMatches(rule.pattern, ex.argv, hosts) == ex.should_match) continue;
    errors.push_back({ex.where, "prefix_rule: example `" + shellJoin(ex.argv) + "` should " +
                                    (ex.should_match ? "" : "not ") + "match pattern `" +
                                    rule.pattern.text() + "` but " +
                                    (ex.should_match ? "does not" : "does")});
  }
}

// The example as a call of the Bash tool.
RuleExample toolguardExample(const CodexExample& ex) {
  RuleExample out;
  out.call.tool = "Bash";
  out.call.args = {{"command", shellJoin(ex.argv)}};
  out.call.context.cwd = kCodexExampleCwd;
  out.should_match = ex.should_match;
  out.where = ex.where;
  return out;
}

// Builds rules and notes from the checked calls.
class Builder {
 public:
  Builder(const std::string& file, PolicyLayer layer, ForeignPolicy& out)
      : file_(file),
        layer_(layer),
        out_(out),
        id_prefix_("codex-" + stem(file) + "-" + pathTag(file) + "-") {}

  // One prefix_rule as one rule (or none, when an allow rule cannot be read safely).
  void add(const CodexPrefixRule& rule) {
    RuleSpec spec;
    spec.header.id = uniqueId(rule.where);
    spec.header.source = rule.where;
    spec.header.layer = layer_;
    spec.header.target.kinds = {ToolKind::Shell};
    spec.verdict = verdictOf(rule.decision);
    spec.reason = reasonOf(rule);
    if (spec.verdict == Verdict::Allow) {
      std::vector<std::string> dropped;
      auto matcher = allowMatcher(rule.pattern, rule.pattern_where, dropped);
      for (const std::string& d : dropped) note(rule.where, droppedAlternativeNote(d));
      if (!matcher) {
        note(rule.where, leftOutNote(rule.pattern));
        return;
      }
      spec.shell = std::move(*matcher);
    } else {
      spec.shell = restrictingMatcher(rule.pattern, rule.pattern_where);
    }
    for (const CodexExample& ex : rule.examples) spec.examples.push_back(toolguardExample(ex));
    if (!keepAgreeingExamples(rule, spec)) return;
    for (std::string& n : readingNotes(rule)) note(rule.where, std::move(n));
    out_.document.rules.push_back(std::move(spec));
  }

 private:
  // "codex-<stem>-<tag>-<line>", with the column when a line holds two rules.
  std::string uniqueId(const SourceLocation& where) {
    std::string id = id_prefix_ + std::to_string(where.line);
    if (std::find(ids_.begin(), ids_.end(), id) != ids_.end())
      id += "-" + std::to_string(where.column);
    ids_.push_back(id);
    return id;
  }

  // Runs the examples against toolguard's reading. An example Codex honours
  // but toolguard's stricter reading does not is dropped with a note; one that
  // would make toolguard allow what Codex does not leaves the rule out.
  bool keepAgreeingExamples(const CodexPrefixRule& rule, RuleSpec& spec) {
    if (spec.examples.empty()) return true;
    scratch_.rules = {compileRule(spec)};
    std::vector<PolicyDiagnostic> failures = checkRuleExamples(scratch_);
    const bool allow = spec.verdict == Verdict::Allow;
    for (const PolicyDiagnostic& f : failures) {
      auto ex = std::find_if(rule.examples.begin(), rule.examples.end(), [&](const auto& e) {
        return e.where.line == f.where.line && e.where.column == f.where.column;
      });
      if (ex == rule.examples.end()) continue;
      if (allow && !ex->should_match) {
        note(rule.where, looserExampleNote(shellJoin(ex->argv)));
        return false;
      }
      note(ex->where, disagreeingExampleNote(shellJoin(ex->argv), allow, ex->should_match));
      std::erase_if(spec.examples, [&](const RuleExample& e) {
        return e.where.line == ex->where.line && e.where.column == ex->where.column;
      });
    }
    return true;
  }

  // Adds an import note.
  void note(const SourceLocation& where, std::string message) {
    out_.notes.push_back({where, std::move(message)});
  }

  std::string file_;
  PolicyLayer layer_;
  ForeignPolicy& out_;
  std::string id_prefix_;
  std::vector<std::string> ids_;
  Policy scratch_;  ///< holds one rule at a time to run its examples
};

}  // namespace

// Reads, checks (all errors at once), then builds rules and notes in file order.
ForeignPolicy importCodexRules(std::string_view text, const std::string& file, PolicyLayer layer) {
  const std::vector<StarlarkCall> calls = readStarlarkCalls(text, file);
  std::vector<PolicyDiagnostic> errors;
  CodexFile codex = readCodexCalls(calls, errors);
  // Codex checks the examples once the whole file is read (host_executable
  // entries anywhere in it count).
  for (const CodexPrefixRule& rule : codex.rules) checkWithCodex(rule, codex.hosts, errors);
  if (!errors.empty()) {
    std::stable_sort(errors.begin(), errors.end(), [](const auto& x, const auto& y) {
      return x.where.line != y.where.line ? x.where.line < y.where.line
                                          : x.where.column < y.where.column;
    });
    throw PolicyError(std::move(errors));
  }

  ForeignPolicy out;
  out.document.name = file;
  Builder builder(file, layer, out);
  for (const CodexPrefixRule& rule : codex.rules) builder.add(rule);
  out.notes.insert(out.notes.end(), codex.notes.begin(), codex.notes.end());
  std::stable_sort(out.notes.begin(), out.notes.end(), [](const auto& a, const auto& b) {
    return a.where.line != b.where.line ? a.where.line < b.where.line
                                        : a.where.column < b.where.column;
  });
  return out;
}

}  // namespace toolguard::detail
