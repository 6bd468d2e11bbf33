// Merging what policy files say about sessions: `labels:` entries (a label
// only ever adds questions, so any layer may add one; replacing one loosens)
// and `sessions:` (remembering longer and more, and a stricter rule of two,
// tighten).
#include <algorithm>

#include "policy_document.hpp"
#include "toolguard/rule_spec.hpp"

namespace toolguard::detail {
namespace {

// How strict a rule-of-two setting is: off, ask, deny.
int strictness(const std::optional<Verdict>& rule_of_two) {
  if (!rule_of_two) return 0;
  return *rule_of_two == Verdict::Ask ? 1 : 2;
}

void mergeLabel(Policy& policy, LabelSpec spec, PolicyLayer layer, bool trusted,
                std::vector<PolicyDiagnostic>& errors) {
  const SourceLocation where = spec.rule.header.source;
  const std::string id = spec.rule.header.id;
  auto existing = std::find_if(policy.label_rules.begin(), policy.label_rules.end(),
                               [&](const LabelRule& rule) { return rule.rule->id() == id; });
  if (existing != policy.label_rules.end() && existing->rule->layer() == layer &&
      layer != PolicyLayer::Code) {
    errors.push_back({where, "duplicate labels entry id '" + id + "' (first defined at " +
                                 existing->rule->source().toString() + ")"});
    return;
  }
  if (existing != policy.label_rules.end() &&
      !mayLoosenSetting(existing->rule->layer(), layer, trusted)) {
    policy.warnings.push_back({where, "labels entry " + id + " ignored: it would replace " + id +
                                          " from " + existing->rule->source().toString() +
                                          ", and " + loosenRefusal(layer, trusted)});
    return;
  }
  spec.rule.header.layer = layer;
  LabelRule compiled;
  compiled.label = std::move(spec.label);
  try {
    compiled.rule = compileRule(std::move(spec.rule));
  } catch (const PolicyError& e) {
    errors.insert(errors.end(), e.errors().begin(), e.errors().end());
    return;
  }
  if (existing != policy.label_rules.end()) {
    *existing = std::move(compiled);
  } else {
    policy.label_rules.push_back(std::move(compiled));
  }
}

}  // namespace

bool isLabelName(std::string_view label) {
  return !label.empty() && label.size() <= 64 && label[0] >= 'a' && label[0] <= 'z' &&
         std::all_of(label.begin(), label.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
         });
}

void mergeSessions(Policy& policy, PolicyDocument& doc, PolicyLayer layer, bool trusted,
                   std::vector<PolicyDiagnostic>& errors) {
  for (LabelSpec& spec : doc.labels) mergeLabel(policy, std::move(spec), layer, trusted, errors);
  SessionSettings& sessions = policy.sessions;
  const bool may_loosen = mayLoosenSetting(sessions.layer, layer, trusted);
  bool changed = false;
  auto refuse = [&](const std::string& what) {
    policy.warnings.push_back(
        {doc.sessions_where, "sessions." + what + " ignored: " + loosenRefusal(layer, trusted)});
  };
  if (doc.session_expire_after) {
    if (*doc.session_expire_after >= sessions.expire_after || may_loosen) {
      sessions.expire_after = *doc.session_expire_after;
      changed = true;
    } else {
      refuse("expire_after");
    }
  }
  if (doc.session_max_events) {
    // Either way it is the trusted layers' to set: fewer forgets sooner, and
    // many more makes every call of a session read a long file.
    if (may_loosen) {
      sessions.max_events = *doc.session_max_events;
      changed = true;
    } else {
      refuse("max_events");
    }
  }
  if (doc.rule_of_two) {
    if (strictness(*doc.rule_of_two) >= strictness(sessions.rule_of_two) || may_loosen) {
      sessions.rule_of_two = *doc.rule_of_two;
      changed = true;
    } else {
      refuse("rule_of_two");
    }
  }
  if (changed) {
    // A managed setting stays managed when another layer only tightens it.
    if (sessions.layer != PolicyLayer::Managed) sessions.layer = layer;
    sessions.source = doc.sessions_where;
  }
}

}  // namespace toolguard::detail
