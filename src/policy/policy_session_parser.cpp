// Policy files: what sessions remember and the rules over them. `labels:`
// (which calls give their session which labels), a rule's `after:` (what
// the session must have done before), and `sessions:` (how long and how
// much is remembered, and the rule of two).
#include "policy_file_parser.hpp"

namespace toolguard::detail {

// Labels are short names of lowercase letters, digits, `-` and `_`.
void PolicyFileParser::checkLabelName(const DocNode& node, const std::string& label,
                                      const std::string& what) {
  if (!isLabelName(label)) error(node, what + ": '" + label + "' " + kLabelNameRule);
}

void PolicyFileParser::parseLabels(const DocNode& node, PolicyDocument& doc) {
  if (!node.IsSequence()) {
    error(node, "labels: expected a list of entries with id, label and the calls they match");
    return;
  }
  for (const DocNode& item : node.items()) {
    if (!item.IsMap()) {
      error(item, "labels entry: expected a mapping");
      continue;
    }
    LabelSpec spec;
    spec.rule = parseRule(item, RuleEntry::Label, &spec.label);
    doc.labels.push_back(std::move(spec));
  }
}

// after: {label: NAME | call: {...}, within: CALLS | DURATION}, or a list of them.
void PolicyFileParser::ruleAfter(const DocNode& node, RuleSpec& rule, bool is_case) {
  static constexpr const char* kExpected =
      "after: expected a mapping (or a list of them) with label or call, and within";
  std::vector<const DocNode*> items;
  if (node.IsMap()) {
    items.push_back(&node);
  } else if (node.IsSequence() && node.size() > 0) {
    for (const DocNode& item : node.items()) items.push_back(&item);
  } else {
    error(node, kExpected);
    return;
  }
  for (const DocNode* item : items) {
    if (!item->IsMap()) {
      error(*item, kExpected);
      continue;
    }
    SessionCondition condition;
    condition.where = where(*item);
    const DocNode* call = nullptr;
    for (const auto& [key, value] : entries(*item)) {
      const std::string k = key.Scalar();
      if (k == "label") {
        if (auto s = scalar(value, "after.label")) {
          condition.label = *s;
          checkLabelName(value, condition.label, "after.label");
        }
      } else if (k == "call") {
        call = &value;
      } else if (k == "within") {
        const std::string text = value.IsScalar() ? value.Scalar() : "";
        if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
          condition.within_calls = count(value, "after.within", 1, 100000).value_or(0);
        } else if (auto span = duration(value, "after.within")) {
          condition.within_time = std::chrono::duration_cast<std::chrono::seconds>(*span);
          if (condition.within_time.count() == 0) {
            error(value, "after.within: a time window is at least 1s");
          }
        }
      } else {
        error(key, unknownNameMessage("after: unknown key", k, "", "label, call, within"));
      }
    }
    if ((call != nullptr) == !condition.label.empty()) {
      error(*item, "after: name either a label or a call");
      continue;
    }
    if (call != nullptr) {
      if (is_case) {
        error(*call, "after.call: a first_match case names earlier calls by label only");
        continue;
      }
      if (!call->IsMap()) {
        error(*call, "after.call: expected a mapping with the tools and conditions of the call");
        continue;
      }
      // The earlier call is remembered by a label of its own.
      LabelSpec spec;
      spec.label = "after:" + rule.header.id + "#" + std::to_string(rule.after.size() + 1);
      spec.rule = parseRule(*call, RuleEntry::AfterCall);
      spec.rule.header.id = spec.label;
      condition.label = spec.label;
      after_labels_.push_back(std::move(spec));
    }
    rule.after.push_back(std::move(condition));
  }
}

// sessions: {expire_after: DURATION, max_events: N, rule_of_two: ask|deny|off}
void PolicyFileParser::parseSessions(const DocNode& node, PolicyDocument& doc) {
  doc.sessions_where = where(node);
  if (!node.IsMap()) {
    error(node, "sessions: expected a mapping with expire_after, max_events, rule_of_two");
    return;
  }
  for (const auto& [key, value] : entries(node)) {
    const std::string k = key.Scalar();
    if (k == "expire_after") {
      if (auto span = duration(value, "sessions.expire_after")) {
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(*span);
        if (seconds.count() < 60) {
          error(value, "sessions.expire_after: at least 1m");
        } else {
          doc.session_expire_after = seconds;
        }
      }
    } else if (k == "max_events") {
      doc.session_max_events = count(value, "sessions.max_events", 16, 100000);
    } else if (k == "rule_of_two") {
      const std::string text = value.IsScalar() ? value.Scalar() : "";
      if (text == "ask") {
        doc.rule_of_two = std::optional<Verdict>(Verdict::Ask);
      } else if (text == "deny") {
        doc.rule_of_two = std::optional<Verdict>(Verdict::Deny);
      } else if (text == "off") {
        doc.rule_of_two = std::optional<Verdict>();
      } else {
        error(value, unknownNameMessage("sessions.rule_of_two: unknown value", text, "",
                                        "ask, deny, off"));
      }
    } else {
      error(key, unknownNameMessage("sessions: unknown key", k, "",
                                    "expire_after, max_events, rule_of_two"));
    }
  }
}

}  // namespace toolguard::detail
