// Policy files: rules, first_match cases and their examples.
#include "policy_file_parser.hpp"
#include "sandbox/proxy_hosts.hpp"

namespace toolguard::detail {

// The tool a string example is a call of: the rule's first exact tool name,
// else a catalog tool of the rule's first kind.
const ToolInfo* PolicyFileParser::exampleTool(const RuleSpec& rule) {
  for (const auto& name : rule.header.target.tools) {
    if (!isWildcard(name)) return examples_catalog_->find(name);
  }
  static const std::pair<ToolKind, const char*> kByKind[] = {
      {ToolKind::Shell, "Bash"},      {ToolKind::FileWrite, "Write"},  {ToolKind::FileRead, "Read"},
      {ToolKind::FileSearch, "Grep"}, {ToolKind::Network, "WebFetch"},
  };
  for (ToolKind kind : rule.header.target.kinds) {
    for (const auto& [k, name] : kByKind) {
      if (k == kind) return examples_catalog_->find(name);
    }
  }
  // A first_match rule without a target of its own: its first case's tool.
  if (!rule.first_match.empty() && rule.header.target.tools.empty() &&
      rule.header.target.kinds.empty()) {
    return exampleTool(rule.first_match.front());
  }
  return nullptr;
}

std::optional<RuleExample> PolicyFileParser::example(const DocNode& node, const RuleSpec& rule,
                                                     bool should_match) {
  RuleExample ex;
  ex.should_match = should_match;
  ex.where = where(node);
  ex.call.context.cwd = kExampleCwd;
  if (node.IsScalar()) {
    const ToolInfo* tool = exampleTool(rule);
    if (tool == nullptr || (tool->command_arg.empty() && tool->path_args.empty())) {
      error(node,
            "a string example needs a rule for a shell or file tool; write the call as "
            "{tool: NAME, args: {...}}");
      return std::nullopt;
    }
    ex.call.tool = tool->name;
    const std::string& arg =
        tool->command_arg.empty() ? tool->path_args.front() : tool->command_arg;
    ex.call.args[arg] = node.Scalar();
    return ex;
  }
  if (!node.IsMap()) {
    error(node, "example: expected a command or path string, or {tool, args, context}");
    return std::nullopt;
  }
  for (const auto& [k, v] : entries(node)) {
    const std::string_view key = k.Scalar();
    if (key == "tool") {
      if (auto s = scalar(v, "example.tool")) ex.call.tool = *s;
    } else if (key == "args") {
      ex.call.args = docToJson(v);
      if (!ex.call.args.is_object()) error(v, "example.args: expected a mapping");
    } else if (key == "context") {
      exampleContext(v, ex.call.context);
    } else {
      error(k, unknownNameMessage("example: unknown key", key, "", "tool, args, context"));
    }
  }
  for (const auto& name : rule.header.target.tools) {
    if (ex.call.tool.empty() && !isWildcard(name)) ex.call.tool = name;
  }
  if (ex.call.tool.empty()) {
    const ToolInfo* tool = exampleTool(rule);
    if (tool == nullptr || tool->name.empty()) {
      error(node, "example: tool is required (the rule names no exact tool)");
      return std::nullopt;
    }
    ex.call.tool = tool->name;
  }
  return ex;
}

void PolicyFileParser::exampleContext(const DocNode& node, CallContext& context) {
  if (!node.IsMap()) {
    error(node, "example.context: expected a mapping");
    return;
  }
  for (const auto& [k, v] : entries(node)) {
    const std::string& key = k.Scalar();
    auto value = scalar(v, "example.context." + key);
    if (!value) continue;
    if (std::string problem = setContextField(context, key, *value); !problem.empty()) {
      error(v, "example.context." + key + ": " + problem);
    }
  }
}

void PolicyFileParser::parseExamples(const DocNode& node, RuleSpec& rule) {
  if (!node.IsMap()) {
    error(node, "examples: expected a mapping with match and not_match lists");
    return;
  }
  for (const auto& [k, v] : entries(node)) {
    const std::string_view key = k.Scalar();
    if (key != "match" && key != "not_match") {
      error(k, unknownNameMessage("examples: unknown key", key, "", "match, not_match"));
      continue;
    }
    if (!v.IsSequence()) {
      error(v, "examples." + std::string(key) + ": expected a list");
      continue;
    }
    for (const DocNode& item : v.items()) {
      if (auto ex = example(item, rule, key == "match")) rule.examples.push_back(std::move(*ex));
    }
  }
}

void PolicyFileParser::parseRules(const DocNode& node, PolicyDocument& doc) {
  if (!node.IsSequence()) {
    error(node, "rules: expected a list of rules");
    return;
  }
  for (const DocNode& item : node.items()) {
    if (!item.IsMap()) {
      error(item, "rule: expected a mapping");
      continue;
    }
    doc.rules.push_back(parseRule(item, RuleEntry::Rule));
  }
}

// A rule's `sandbox:`: `required`, or a mapping with required (true or
// false), writable (absolute or ~ places) and hosts (as sandbox.hosts).
void PolicyFileParser::ruleSandbox(const DocNode& v, RuleSpec& rule) {
  static constexpr const char* kExpected =
      "sandbox: expected required (the rule holds only for a call run in the sandbox) or a "
      "mapping with required, writable, hosts";
  if (v.IsScalar()) {
    if (v.Scalar() != "required") {
      error(v, kExpected);
    } else {
      rule.only_confined = true;
    }
    return;
  }
  if (!v.IsMap()) {
    error(v, kExpected);
    return;
  }
  for (const auto& [key, entry_value] : entries(v)) {
    const DocNode& value = entry_value;  // a lambda may not capture a structured binding (C++17)
    const std::string k = key.Scalar();
    if (k == "required") {
      if (!value.IsScalar() || (value.Scalar() != "true" && value.Scalar() != "false")) {
        error(value, "sandbox.required: expected true or false");
      } else {
        rule.only_confined = value.Scalar() == "true";
      }
    } else if (k == "writable") {
      rule.sandbox_writable = strings(value, "sandbox.writable");
      for (const std::string& place : rule.sandbox_writable) {
        if (Expected<void> characters = checkPathCharacters(place); !characters) {
          error(value, "sandbox.writable: " + characters.error());
        } else if (place.empty() || (place[0] != '/' && place[0] != '~')) {
          error(value, "sandbox.writable: " + place + " is not an absolute or ~ place");
        }
      }
    } else if (k == "hosts") {
      rule.sandbox_hosts = strings(value, "sandbox.hosts");
      for (const std::string& host : rule.sandbox_hosts) {
        if (Expected<sandbox::HostPattern> pattern = sandbox::parseHostPattern(host); !pattern) {
          error(value, "sandbox.hosts: " + pattern.error());
        }
      }
    } else {
      error(key, unknownNameMessage("sandbox: unknown key", k, " in a rule",
                                    "required, writable, hosts"));
    }
  }
}

// One key a rule and a first_match case share (target, conditions, verdict,
// reason); false when `key` is not one of them.
bool PolicyFileParser::ruleField(std::string_view key, const DocNode& v, RuleSpec& rule,
                                 bool& has_verdict) {
  if (key == "tool") {
    rule.header.target.tools = strings(v, "tool");
    if (rule.header.target.tools.empty()) error(v, "tool: the list is empty");
  } else if (key == "category") {
    rule.header.target.categories = strings(v, "category");
  } else if (key == "kind") {
    for (const auto& name : strings(v, "kind")) {
      if (auto kind = parseToolKind(name)) {
        rule.header.target.kinds.push_back(*kind);
      } else {
        error(v, unknownNameMessage("kind: unknown kind", name, "",
                                    "shell, file-read, file-write, file-search, network, "
                                    "agent, other"));
      }
    }
  } else if (key == "max_risk") {
    rule.risk_above =
        named<RiskLevel>(v, "max_risk", parseRiskLevel, "low, medium, high, critical");
  } else if (key == "args") {
    rule.args = namedMatchers(v, "args");
  } else if (key == "only_args") {
    if (!v.IsSequence()) {
      error(v, "only_args: expected a list of argument names (an empty list: no argument)");
    } else {
      rule.only_args = strings(v, "only_args");
    }
  } else if (key == "sandbox") {
    ruleSandbox(v, rule);
  } else if (key == "command") {
    rule.command = valueMatcher(v, "command");
  } else if (key == "path") {
    rule.path = pathMatcher(v);
  } else if (key == "shell") {
    rule.shell = shellMatcher(v);
  } else if (key == "content") {
    rule.content = contentMatcher(v);
  } else if (key == "local") {
    if (!v.IsScalar() || (v.Scalar() != "true" && v.Scalar() != "false")) {
      error(v, "local: expected true or false");
    } else {
      rule.local = v.Scalar() == "true";
    }
  } else if (key == "context") {
    rule.context = namedMatchers(v, "context");
  } else if (key == "verdict") {
    has_verdict = true;
    if (auto value = verdict(v, "verdict")) rule.verdict = *value;
  } else if (key == "reason") {
    if (auto s = scalar(v, "reason")) rule.reason = *s;
  } else if (key == "description") {
    (void)scalar(v, "description");
  } else {
    return false;
  }
  return true;
}

// The keys an entry of `kind` may have, for "unknown key" errors.
static const char* ruleEntryKeys(RuleEntry kind) {
  switch (kind) {
    case RuleEntry::Rule:
      return "id, tool, category, kind, max_risk, args, only_args, sandbox, command, content, "
             "path, files, shell, local, context, after, verdict, reason, description, examples, "
             "first_match";
    case RuleEntry::Case:
      return "id, tool, category, kind, max_risk, args, only_args, sandbox, command, content, "
             "path, files, shell, local, context, after, verdict, reason, description";
    case RuleEntry::Label:
      return "id, label, tool, category, kind, max_risk, args, only_args, command, content, path, "
             "files, shell, local, context, description";
    case RuleEntry::AfterCall:
      return "tool, category, kind, max_risk, args, only_args, command, content, path, files, "
             "shell, local, context, description";
  }
  return "";
}

static const char* ruleEntryName(RuleEntry kind) {
  switch (kind) {
    case RuleEntry::Rule:
      return " in a rule";
    case RuleEntry::Case:
      return " in a first_match case";
    case RuleEntry::Label:
      return " in a labels entry";
    case RuleEntry::AfterCall:
      return " in an after call";
  }
  return "";
}

// A `rules:` entry, one case of a rule's `first_match` list, a `labels:`
// entry (its label in `label`), or the call an `after:` names.
RuleSpec PolicyFileParser::parseRule(const DocNode& item, RuleEntry kind, std::string* label) {
  const bool is_case = kind == RuleEntry::Case;
  // Labels and after calls say which calls, not what they get.
  const bool matcher_only = kind == RuleEntry::Label || kind == RuleEntry::AfterCall;
  RuleSpec rule;
  rule.header.source = where(item);
  rule.header.layer = layer_;
  bool has_verdict = false;
  bool has_conditions = false;
  bool files = false;
  const DocNode* examples = nullptr;
  const DocNode* cases = nullptr;
  const DocNode* after = nullptr;
  for (const auto& [k, v] : entries(item)) {
    const std::string_view key = k.Scalar();
    if (key == "id" && kind != RuleEntry::AfterCall) {
      if (auto s = scalar(v, "id")) rule.header.id = *s;
    } else if (key == "label" && kind == RuleEntry::Label) {
      if (auto s = scalar(v, "label")) *label = *s;
      if (!label->empty()) checkLabelName(v, *label, "label");
    } else if (key == "examples" && kind == RuleEntry::Rule) {
      examples = &v;
    } else if (key == "first_match" && kind == RuleEntry::Rule) {
      cases = &v;
    } else if (key == "after" && !matcher_only) {
      after = &v;
      has_conditions = true;
    } else if (key == "files") {
      // Files under these globs, by every route: file tools, MCP tools, the shell.
      if (rule.path) error(k, "files: a rule has either files or path, not both");
      rule.path = pathMatcher(v);
      files = true;
      has_conditions = true;
    } else if (key == "path" && files) {
      error(k, "path: a rule has either files or path, not both");
    } else if (matcher_only && (key == "verdict" || key == "reason" || key == "sandbox")) {
      error(k, std::string(key) + ": " +
                   (kind == RuleEntry::Label ? "a labels entry" : "an after call") +
                   " says which calls, not what they get" + ruleEntryName(kind));
    } else if (ruleField(key, v, rule, has_verdict)) {
      has_conditions = has_conditions || (key != "tool" && key != "category" && key != "kind" &&
                                          key != "description");
    } else {
      error(k, unknownNameMessage("unknown key", key, ruleEntryName(kind), ruleEntryKeys(kind)));
    }
  }
  if (rule.shell && rule.header.target.tools.empty() && rule.header.target.kinds.empty() &&
      rule.header.target.categories.empty()) {
    rule.header.target.kinds.push_back(ToolKind::Shell);  // shell: implies shell tools
  }
  if (files && rule.path && rule.header.target.tools.empty() && rule.header.target.kinds.empty() &&
      rule.header.target.categories.empty()) {
    // files: implies every read and write, whatever the tool.
    rule.header.target.kinds = {ToolKind::FileRead, ToolKind::FileWrite, ToolKind::FileSearch};
  }
  if (matcher_only) {
    // Matched path by path like a restricting rule, so that a label of
    // files meets them by every route.
    rule.verdict = Verdict::Ask;
    const RuleTarget& t = rule.header.target;
    if (!has_conditions && t.tools.empty() && t.categories.empty() && t.kinds.empty()) {
      error(item, std::string(kind == RuleEntry::Label ? "labels entry " + rule.header.id
                                                       : std::string("after call")) +
                      ": it would match every call; name its tools, kinds or conditions");
    }
    if (kind == RuleEntry::Label) {
      if (rule.header.id.empty()) error(item, "labels entry: id is required");
      if (label->empty()) error(item, "labels entry " + rule.header.id + ": label is required");
    }
    return rule;
  }
  if (cases) {
    if (has_conditions) {
      error(*cases, "rule " + rule.header.id +
                        ": a first_match rule has its conditions, verdicts and reasons in "
                        "its cases");
    }
    parseCases(*cases, rule);
  } else if (!has_verdict) {
    error(item, (is_case ? "first_match case" : "rule " + rule.header.id) +
                    std::string(": verdict is required"));
  }
  if (!is_case && rule.header.id.empty()) error(item, "rule: id is required");
  if (after) ruleAfter(*after, rule, is_case);
  if ((!rule.sandbox_writable.empty() || !rule.sandbox_hosts.empty()) &&
      (is_case || rule.verdict != Verdict::Allow)) {
    error(item, (is_case ? "first_match case" : "rule " + rule.header.id) +
                    std::string(": sandbox writable and hosts widen what an allowed call may do, "
                                "so they go on a rule whose verdict is allow (not a case)"));
  }
  if (examples && read_examples_) parseExamples(*examples, rule);
  return rule;
}

void PolicyFileParser::parseCases(const DocNode& node, RuleSpec& rule) {
  if (!node.IsSequence() || node.size() == 0) {
    error(node, "first_match: expected a non-empty list of cases");
    return;
  }
  for (const DocNode& item : node.items()) {
    if (!item.IsMap()) {
      error(item, "first_match case: expected a mapping");
      continue;
    }
    rule.first_match.push_back(parseRule(item, RuleEntry::Case));
  }
}

}  // namespace toolguard::detail
