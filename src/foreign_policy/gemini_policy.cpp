// Gemini CLI policy files (TOML `[[rule]]` tables) read into one toolguard
// rule whose first_match cases follow Gemini CLI's order: priority, highest
// first, ties in file order (docs/formats/gemini-cli-policy.md).
#include <algorithm>

#include "foreign_policy/foreign_policy.hpp"
#include "foreign_policy/gemini_rule.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// A case and where it goes in Gemini CLI's order.
struct OrderedCase {
  int priority;
  RuleSpec spec;
  bool broadened_ask = false;
};

}  // namespace

ForeignPolicy importGeminiPolicy(std::string_view text, const std::string& file,
                                 PolicyLayer layer) {
  ForeignPolicy out;
  out.document.name = file;
  const std::vector<gemini::GeminiRule> rules = gemini::readGeminiRules(text, file, out.notes);
  const std::string id = "gemini:" + file;
  std::vector<OrderedCase> ordered;
  std::vector<PolicyDiagnostic> errors;
  for (const gemini::GeminiRule& rule : rules) {
    try {
      gemini::MappedRule mapped = gemini::mapGeminiRule(rule, id);
      for (RuleSpec& c : mapped.cases) {
        ordered.push_back({rule.priority, std::move(c), mapped.broadened_ask});
      }
      for (RuleSpec& s : mapped.standalone) {
        s.header.layer = layer;
        out.document.rules.push_back(std::move(s));
      }
      out.notes.insert(out.notes.end(), mapped.notes.begin(), mapped.notes.end());
    } catch (const PolicyError& e) {
      errors.insert(errors.end(), e.errors().begin(), e.errors().end());
    }
  }
  if (!errors.empty()) throw PolicyError(std::move(errors));
  // Highest priority first; equal priorities keep the file's order, as the
  // stable sort of Gemini CLI's PolicyEngine does.
  std::stable_sort(ordered.begin(), ordered.end(), [](const OrderedCase& a, const OrderedCase& b) {
    return a.priority > b.priority;
  });
  if (!ordered.empty()) {
    RuleSpec rule;
    rule.header.id = id;
    rule.header.source = ordered.front().spec.header.source;
    rule.header.layer = layer;
    bool after_broad_ask = false;
    // The cases in order without the broadly read asks and without the deny
    // cases on the raw text of the whole call: what decides a simple command
    // before a deny, as in Gemini CLI, with every ask that could hide it gone.
    std::vector<RuleSpec> before_deny;
    for (OrderedCase& c : ordered) {
      c.spec.header.layer = layer;
      const bool deny = c.spec.verdict == Verdict::Deny;
      // The raw text of the whole call: tested as it is for every simple
      // command, so a copy would deny `git log` in `docker ps && git log`
      // for `deny docker` (the rule's cases on each command are copied).
      const bool raw_text = !c.spec.shell.has_value() && c.spec.command.has_value();
      // A deny below a broadly read ask also applies on its own, after the
      // cases above it (a higher allow still makes its exception; an ask for
      // another command, read broadly, changes nothing).
      if (after_broad_ask && deny && !raw_text) {
        RuleSpec copy;
        copy.header = c.spec.header;
        copy.header.id += ":deny";
        copy.first_match = before_deny;
        copy.first_match.push_back(c.spec);
        out.document.rules.push_back(std::move(copy));
      }
      after_broad_ask = after_broad_ask || c.broadened_ask;
      if (!c.broadened_ask && !(deny && raw_text)) before_deny.push_back(c.spec);
      rule.first_match.push_back(std::move(c.spec));
    }
    out.document.rules.insert(out.document.rules.begin(), std::move(rule));
  }
  return out;
}

}  // namespace toolguard::detail
