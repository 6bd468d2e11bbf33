// One Gemini CLI rule as toolguard cases. An allow rule is read narrowly and a
// restricting one broadly, so the import never loosens the source policy.
#include <algorithm>
#include <array>

#include "foreign_policy/gemini_cases.hpp"

namespace toolguard::detail::gemini {
namespace {

constexpr std::array<const char*, 4> kAllModes = {"default", "autoEdit", "yolo", "plan"};

// "file:line", for reasons.
std::string place(const GeminiRule& rule) {
  return rule.where.file + ":" + std::to_string(rule.where.line);
}

// The finding's reason: the rule's deny message, or where the rule is.
std::string reasonFor(const GeminiRule& rule) {
  switch (rule.decision) {
    case Verdict::Allow:
      return "allowed by the Gemini CLI policy rule at " + place(rule);
    case Verdict::Ask:
      return "the Gemini CLI policy rule at " + place(rule) + " asks for approval";
    default:
      return rule.deny_message.empty() ? "denied by the Gemini CLI policy rule at " + place(rule)
                                       : rule.deny_message;
  }
}

// Joins names for messages.
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Conditions toolguard cannot see (approval mode, interactivity, subagent,
// tool annotations). Returns false when an allow rule must be left out.
bool readHiddenConditions(CaseBuilder& b) {
  const GeminiRule& r = b.rule;
  const bool allow = b.allows();
  const bool every_mode = std::all_of(kAllModes.begin(), kAllModes.end(), [&](const char* m) {
    return std::find(r.modes.begin(), r.modes.end(), m) != r.modes.end();
  });
  if (!r.modes.empty() && !every_mode) {
    const bool in_default = std::find(r.modes.begin(), r.modes.end(), "default") != r.modes.end();
    if (allow && !in_default) {
      b.note("allow rule for approval modes " + listed(r.modes) +
             " only: toolguard cannot see Gemini CLI's approval mode, so it is left out");
      return false;
    }
    b.note("rule for approval modes " + listed(r.modes) +
           ": toolguard cannot see Gemini CLI's approval mode and applies it in every mode");
    b.broadened = b.broadened || !allow;
  }
  if (r.interactive) {
    if (allow && !*r.interactive) {
      b.note(
          "allow rule for non-interactive sessions only: toolguard cannot tell, so it is "
          "left out");
      return false;
    }
    b.note(std::string("rule for ") + (*r.interactive ? "interactive" : "non-interactive") +
           " sessions only: toolguard applies it in every session");
    b.broadened = b.broadened || !allow;
  }
  const std::pair<bool, const char*> unseen[] = {{r.subagent.has_value(), "subagent"},
                                                 {r.has_annotations, "toolAnnotations"}};
  for (const auto& [set, key] : unseen) {
    if (!set) continue;
    if (allow) {
      b.note(std::string("allow rule with ") + key +
             ": toolguard cannot test it, so the rule is left out");
      return false;
    }
    b.note(std::string(key) + " cannot be tested by toolguard: the rule applies to every call");
    b.broadened = true;
  }
  for (const std::string& key : r.ignored_keys) {
    b.note("'" + key +
           "' is not a field of Gemini CLI's rules; Gemini CLI ignores it, and so "
           "does the import");
  }
  return true;
}

// Gemini CLI does not load a rule whose pattern looks like a ReDoS risk; an
// allow rule is left out too, a restricting one still applies (RE2 is linear).
bool readRefusedPattern(CaseBuilder& b) {
  const GeminiRule& r = b.rule;
  const Field* field =
      r.args_pattern ? &*r.args_pattern : (r.command_regex ? &*r.command_regex : nullptr);
  if (field == nullptr || !geminiRefusesPattern(field->text)) return true;
  if (b.allows()) {
    b.note("Gemini CLI refuses to load '" + field->text +
           "' (a possible ReDoS pattern): this allow rule is left out");
    return false;
  }
  b.note("Gemini CLI refuses to load '" + field->text +
         "' (a possible ReDoS pattern); toolguard's linear-time regexes apply it");
  return true;
}

// Cases for the rule's tools and conditions.
void addCases(CaseBuilder& b, const ToolTargets& targets) {
  const GeminiRule& r = b.rule;
  if (!r.command_prefixes.empty()) {
    for (const Field& prefix : r.command_prefixes) addPrefixCases(b, prefix);
  } else if (r.command_regex) {
    addCommandRegexCases(
        b, *r.command_regex,
        readValuePattern(r.command_regex->text, r.command_regex->where, "commandRegex"));
  } else if (r.args_pattern) {
    addArgsPatternCases(b, targets, *r.args_pattern);
  } else {
    b.cases.push_back(b.make(targets.tools));
  }
  const bool on_command = !r.command_prefixes.empty() || r.command_regex ||
                          (r.args_pattern && r.args_pattern->text.starts_with("\"command\":\""));
  if (b.allows() && on_command && coversShell(targets.tools) && !b.cases.empty()) {
    b.note(
        "each simple command of a compound command (a && b, a; b, a | b, $(...)) must be "
        "allowed on its own; Gemini CLI releases before PR #15770 (Dec 2025) allowed a "
        "compound command whose text matched, and releases before PR #25720 (Apr 2026) did "
        "not check command substitutions");
  }
}

}  // namespace

RuleSpec CaseBuilder::make(std::vector<std::string> tools) const {
  RuleSpec c;
  c.header.source = rule.where;
  c.header.target.tools = std::move(tools);
  c.verdict = rule.decision;
  c.reason = reason;
  return c;
}

void CaseBuilder::note(std::string message) {
  notes.push_back(ImportNote{rule.where, std::move(message)});
}

MappedRule mapGeminiRule(const GeminiRule& rule, const std::string& id) {
  CaseBuilder b{rule, reasonFor(rule), {}, {}, false};
  MappedRule out;
  const ToolTargets targets = readToolTargets(rule);
  if (!targets.dropped.empty()) {
    b.note("toolName " + listed(targets.dropped) +
           ": Gemini CLI matches only *, mcp_* and mcp_<server>_* as wildcards and compares "
           "other names literally, so the allow rule leaves them out");
  }
  if (readHiddenConditions(b) && readRefusedPattern(b) && !targets.tools.empty()) {
    addCases(b, targets);
    addRedirectionGuards(b);
  }
  for (size_t i = 0; i < b.cases.size(); ++i) {
    // Appends, not operator+: GCC 12 -O2 warns (-Wrestrict) on the temporaries.
    std::string case_id = id;
    case_id.append(":").append(std::to_string(rule.where.line));
    if (i > 0) case_id.append(".").append(std::to_string(i + 1));
    b.cases[i].header.id = std::move(case_id);
  }
  if (rule.decision == Verdict::Ask && b.broadened && !b.cases.empty()) {
    b.note(
        "read more broadly than in Gemini CLI; it keeps its place in the priority order (so a "
        "higher-priority allow still makes an exception to it), and every deny rule below it "
        "also applies on its own (the strictest finding wins), so the broader reading never "
        "hides a deny Gemini CLI would reach");
    out.broadened_ask = true;
  }
  out.cases = std::move(b.cases);
  out.notes = std::move(b.notes);
  return out;
}

}  // namespace toolguard::detail::gemini
