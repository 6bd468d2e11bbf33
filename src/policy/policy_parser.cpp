// Policy files (YAML) to PolicyDocument, with file:line:column errors.
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
namespace {

// Where string examples resolve relative paths; documented in docs/policy-files.md.
constexpr const char* kExampleCwd = "/workspace";

class Parser {
 public:
  Parser(std::string name, PolicyLayer layer, const ToolCatalog& catalog, bool read_examples = true)
      : name_(std::move(name)), layer_(layer), catalog_(catalog), read_examples_(read_examples) {}

  PolicyDocument parse(const DocNode& root) {
    PolicyDocument doc;
    doc.name = name_;
    if (root.IsNull()) return doc;  // an empty file is an empty policy
    if (!root.IsMap()) {
      error(root, "expected a mapping with keys version, default, tools, rules");
      finish();
    }
    const DocNode* rules = nullptr;
    for (const auto& [key, value] : entries(root)) {
      const std::string k = key.Scalar();
      if (k == "version") {
        if (!value.IsScalar() || value.Scalar() != "1") error(value, "version: expected 1");
      } else if (k == "default") {
        doc.default_where = where(value);
        doc.default_verdict = verdict(value, "default");
      } else if (k == "tools") {
        parseTools(value, doc);
      } else if (k == "rules") {
        rules = &value;
      } else if (k == "builtin_rules") {
        for (const std::string& set : strings(value, "builtin_rules")) {
          if (set != "shell" && set != "secrets") {
            error(value,
                  unknownNameMessage("builtin_rules: unknown rule set", set, "", "shell, secrets"));
          }
          doc.builtin_rules.push_back(set);
        }
      } else if (k == "trusted_projects") {
        doc.trusted_where = where(value);
        doc.trusted_projects = strings(value, "trusted_projects");
      } else if (k == "paths") {
        parsePathSettings(value, doc);
      } else if (k == "limits") {
        parseLimits(value, doc);
      } else if (k == "rate_limits") {
        parseRateLimits(value, doc);
      } else if (k == "llm") {
        parseLlm(value, doc);
      } else {
        error(key, unknownNameMessage("unknown key", k, "",
                                      "version, default, tools, rules, builtin_rules, "
                                      "trusted_projects, paths, limits, rate_limits, llm"));
      }
    }
    // Rules last: string examples resolve tools this file defines too (the
    // catalog is copied only for a file that defines some).
    if (!doc.tools.empty()) {
      local_catalog_ = catalog_;
      for (const ToolEntry& entry : doc.tools) {
        ToolInfo info = local_catalog_.resolve(entry.name);
        applyToolEntry(info, entry);
        local_catalog_.add(std::move(info));
      }
      examples_catalog_ = &local_catalog_;
    }
    if (rules) parseRules(*rules, doc);
    finish();
    return doc;
  }

 private:
  SourceLocation where(const DocNode& node) const { return locationOf(node, name_); }

  void error(const DocNode& node, std::string message) {
    errors_.push_back({where(node), std::move(message)});
  }

  void finish() {
    if (!errors_.empty()) throw PolicyError(std::move(errors_));
  }

  // Map entries in order, reporting duplicate keys and non-scalar keys.
  // Whether `key` is among the keys read so far. A mapping of a policy has a
  // handful of keys, which a scan finds faster than a set; a large one (a
  // file written to slow the guard down) gets a hash set.
  static bool isDuplicate(const std::vector<std::pair<const DocNode&, const DocNode&>>& read,
                          std::string_view key, std::unordered_set<std::string_view>& large) {
    constexpr std::size_t kScanned = 16;
    if (read.size() < kScanned) {
      return std::any_of(read.begin(), read.end(),
                         [key](const auto& entry) { return entry.first.Scalar() == key; });
    }
    if (large.empty()) {
      for (const auto& entry : read) large.insert(entry.first.Scalar());
    }
    return !large.insert(key).second;
  }

  std::vector<std::pair<const DocNode&, const DocNode&>> entries(const DocNode& map) {
    std::vector<std::pair<const DocNode&, const DocNode&>> out;
    out.reserve(map.size());
    std::unordered_set<std::string_view> seen_in_large_map;
    for (std::size_t i = 0; i < map.size(); ++i) {
      const DocNode& key = map.key(i);
      if (!key.IsScalar()) {
        error(key, "expected a plain key");
        continue;
      }
      if (isDuplicate(out, key.Scalar(), seen_in_large_map)) {
        error(key, "duplicate key '" + key.Scalar() + "'");
        continue;
      }
      out.emplace_back(key, map.value(i));
    }
    return out;
  }

  std::optional<std::string> scalar(const DocNode& node, const std::string& what) {
    if (!node.IsScalar()) {
      error(node, what + ": expected a string");
      return std::nullopt;
    }
    return node.Scalar();
  }

  std::vector<std::string> strings(const DocNode& node, const std::string& what) {
    std::vector<std::string> out;
    if (node.IsScalar()) {
      out.push_back(node.Scalar());
    } else if (node.IsSequence()) {
      for (const DocNode& item : node.items()) {
        if (auto s = scalar(item, what)) out.push_back(*s);
      }
    } else {
      error(node, what + ": expected a string or a list of strings");
    }
    return out;
  }

  std::optional<bool> boolean(const DocNode& node, const std::string& what) {
    if (node.IsScalar()) {
      nlohmann::json value = docToJson(node);
      if (value.is_boolean()) return value.get<bool>();
    }
    error(node, what + ": expected true or false");
    return std::nullopt;
  }

  template <typename T>
  std::optional<T> named(const DocNode& node, const std::string& what,
                         std::optional<T> (*parse)(std::string_view), const char* expected) {
    auto text = scalar(node, what);
    if (!text) return std::nullopt;
    auto value = parse(*text);
    if (!value) error(node, unknownNameMessage(what + ": unknown value", *text, "", expected));
    return value;
  }

  std::optional<Verdict> verdict(const DocNode& node, const std::string& what) {
    return named<Verdict>(node, what, parseVerdict, "allow, escalate, ask, deny, abort");
  }

  void parsePathSettings(const DocNode& node, PolicyDocument& doc) {
    doc.paths_where = where(node);
    if (!node.IsMap()) {
      error(node,
            "paths: expected a mapping with case_sensitivity, follow_symlinks, "
            "workspace_roots");
      return;
    }
    for (const auto& [key, value] : entries(node)) {
      const std::string k = key.Scalar();
      if (k == "case_sensitivity") {
        doc.case_sensitivity = named<CaseSensitivity>(
            value, "paths.case_sensitivity", parseCaseSensitivity, "auto, sensitive, insensitive");
      } else if (k == "follow_symlinks") {
        doc.follow_symlinks = boolean(value, "paths.follow_symlinks");
      } else if (k == "workspace_roots") {
        doc.workspace_roots = strings(value, "paths.workspace_roots");
        for (const std::string& root : doc.workspace_roots) {
          if (auto problem = pathCharacterError(root)) {
            error(value, "paths.workspace_roots: " + *problem);
          }
        }
      } else {
        error(key, unknownNameMessage("paths: unknown key", k, "",
                                      "case_sensitivity, follow_symlinks, workspace_roots"));
      }
    }
  }

  std::optional<size_t> count(const DocNode& node, const std::string& what, size_t low,
                              size_t high) {
    nlohmann::json value = node.IsScalar() ? docToJson(node) : nlohmann::json();
    if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<uint64_t>() < low ||
        value.get<uint64_t>() > high) {
      error(node, what + ": expected a whole number from " + std::to_string(low) + " to " +
                      std::to_string(high));
      return std::nullopt;
    }
    return static_cast<size_t>(value.get<uint64_t>());
  }

  void parseLimits(const DocNode& node, PolicyDocument& doc) {
    doc.limits_where = where(node);
    if (!node.IsMap()) {
      error(node, "limits: expected a mapping with max_argument_bytes, max_argument_depth");
      return;
    }
    for (const auto& [key, value] : entries(node)) {
      const std::string k = key.Scalar();
      if (k == "max_argument_bytes") {
        doc.max_argument_bytes = count(value, "limits.max_argument_bytes", 2, kMaxArgumentBytes);
      } else if (k == "max_argument_depth") {
        doc.max_argument_depth = count(value, "limits.max_argument_depth", 1, kMaxArgumentDepth);
      } else {
        error(key, unknownNameMessage("limits: unknown key", k, "",
                                      "max_argument_bytes, max_argument_depth"));
      }
    }
  }

  // llm: the LLM validator for escalated calls (docs/llm-validator.md).
  void parseLlm(const DocNode& node, PolicyDocument& doc) {
    doc.llm_where = where(node);
    if (!node.IsMap()) {
      error(node,
            "llm: expected a mapping with enabled, base_url, model, api_key_env, "
            "max_turns, timeout, max_input_bytes");
      return;
    }
    for (const auto& [key, value] : entries(node)) {
      const std::string k = key.Scalar();
      const std::string what = "llm." + k;
      if (k == "enabled") {
        doc.llm_enabled = boolean(value, what);
      } else if (k == "base_url") {
        doc.llm_base_url = scalar(value, what);
      } else if (k == "model") {
        doc.llm_model = scalar(value, what);
      } else if (k == "api_key_env") {
        doc.llm_api_key_env = scalar(value, what);
      } else if (k == "max_turns") {
        doc.llm_max_turns = count(value, what, 1, 20);
      } else if (k == "timeout") {
        doc.llm_timeout = duration(value, what);
      } else if (k == "max_input_bytes") {
        doc.llm_max_input_bytes = count(value, what, 256, size_t{1} << 20);
      } else if (k == "api_key") {
        error(key,
              "llm.api_key: a policy file never holds the key; name the environment "
              "variable that does with api_key_env");
      } else {
        error(key, unknownNameMessage("llm: unknown key", k, "",
                                      "enabled, base_url, model, api_key_env, max_turns, "
                                      "timeout, max_input_bytes"));
      }
    }
  }

  // `window: 60s`: a whole number with ms, s, m or h.
  std::optional<std::chrono::milliseconds> duration(const DocNode& node, const std::string& what) {
    static const std::map<std::string, int64_t, std::less<>> kUnits = {
        {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
    const std::string text = node.IsScalar() ? node.Scalar() : "";
    size_t digits = text.find_first_not_of("0123456789");
    auto unit = digits == std::string::npos ? kUnits.end() : kUnits.find(text.substr(digits));
    if (digits == 0 || digits > 9 || unit == kUnits.end()) {
      error(node, what + ": expected a duration such as 500ms, 30s, 5m or 1h");
      return std::nullopt;
    }
    int64_t amount = std::stoll(text.substr(0, digits));
    if (amount == 0) {
      error(node, what + ": must be longer than 0");
      return std::nullopt;
    }
    return std::chrono::milliseconds(amount * unit->second);
  }

  void parseRateLimits(const DocNode& node, PolicyDocument& doc) {
    if (!node.IsSequence()) {
      error(node, "rate_limits: expected a list of limits");
      return;
    }
    for (size_t i = 0; i < node.size(); ++i) {
      const DocNode& item = node[i];
      const std::string p = "rate_limits[" + std::to_string(i) + "]";
      if (!item.IsMap()) {
        error(item, p + ": expected a mapping with tool or category, max_calls and window, " +
                        "per, max_concurrent");
        continue;
      }
      RateLimit limit;
      limit.source = where(item);
      bool has_window = false;
      for (const auto& [key, value] : entries(item)) {
        const std::string k = key.Scalar();
        if (k == "tool") {
          limit.tool = scalar(value, p + ".tool").value_or("*");
        } else if (k == "category") {
          limit.category = scalar(value, p + ".category").value_or("");
        } else if (k == "max_calls") {
          limit.max_calls = count(value, p + ".max_calls", 1, 1000000).value_or(0);
        } else if (k == "window") {
          has_window = true;
          limit.window = duration(value, p + ".window").value_or(std::chrono::milliseconds(0));
        } else if (k == "max_concurrent") {
          limit.max_concurrent = count(value, p + ".max_concurrent", 1, 100000).value_or(0);
        } else if (k == "per") {
          std::string per = scalar(value, p + ".per").value_or("");
          if (per == "session") {
            limit.per = RateLimitPer::Session;
          } else if (per == "agent") {
            limit.per = RateLimitPer::Agent;
          } else {
            error(value, p + ".per: expected session or agent");
          }
        } else {
          error(key, unknownNameMessage(p + ": unknown key", k, "",
                                        "tool, category, max_calls, window, per, "
                                        "max_concurrent"));
        }
      }
      if ((limit.max_calls > 0) != has_window) {
        error(item, p + ": max_calls and window go together");
      } else if (limit.max_calls == 0 && limit.max_concurrent == 0) {
        error(item, p + ": expected max_calls with window, or max_concurrent");
      }
      doc.rate_limits.push_back(std::move(limit));
    }
  }

  void parseTools(const DocNode& node, PolicyDocument& doc) {
    if (!node.IsMap()) {
      error(node, "tools: expected a mapping from tool name to its description");
      return;
    }
    for (const auto& [key, value] : entries(node)) {
      ToolEntry entry;
      entry.name = key.Scalar();
      entry.where = where(key);
      if (!value.IsMap()) {
        error(value, "tools." + entry.name + ": expected a mapping");
        continue;
      }
      const std::string p = "tools." + entry.name + ".";
      for (const auto& [fk, fv] : entries(value)) {
        const std::string f = fk.Scalar();
        if (f == "description") {
          entry.description = scalar(fv, p + f);
        } else if (f == "kind") {
          entry.kind = named<ToolKind>(fv, p + f, parseToolKind,
                                       "shell, file-read, file-write, file-search, network, "
                                       "agent, other");
        } else if (f == "category") {
          entry.category = scalar(fv, p + f);
        } else if (f == "side_effect") {
          entry.side_effect = named<SideEffect>(fv, p + f, parseSideEffect,
                                                "none, local-read, local-write, network-read, "
                                                "network-write, irreversible");
        } else if (f == "risk") {
          entry.risk = named<RiskLevel>(fv, p + f, parseRiskLevel, "low, medium, high, critical");
        } else if (f == "default_approval") {
          entry.default_approval =
              named<DefaultApproval>(fv, p + f, parseDefaultApproval, "never, conditional, always");
        } else if (f == "idempotent") {
          entry.idempotent = boolean(fv, p + f);
        } else if (f == "read_only") {
          entry.read_only = boolean(fv, p + f);
        } else if (f == "policy") {
          entry.policy = named<ToolPolicy>(fv, p + f, parseToolPolicy, "allow, confirm, deny");
        } else if (f == "command_arg") {
          entry.command_arg = scalar(fv, p + f);
        } else if (f == "path_args") {
          entry.path_args = strings(fv, p + f);
        } else if (f == "input_schema") {
          entry.input_schema = docToJson(fv);
          try {
            JsonSchema::compile(*entry.input_schema);
          } catch (const SchemaError& e) {
            error(fv, p + f + ": " + e.what());
          }
        } else {
          error(fk, unknownNameMessage("unknown key", f, " in a tool",
                                       "description, kind, category, side_effect, risk, "
                                       "default_approval, idempotent, read_only, policy, "
                                       "command_arg, path_args, input_schema"));
        }
      }
      doc.tools.push_back(std::move(entry));
    }
  }

  ValueMatcher valueMatcher(const DocNode& node, const std::string& what) {
    ValueMatcher m;
    m.where = where(node);
    if (node.IsSequence()) {
      m.one_of = docToJson(node).get<std::vector<nlohmann::json>>();  // shorthand: any of
      return m;
    }
    if (!node.IsMap()) {
      m.equals = docToJson(node);  // shorthand: a plain value means equals
      return m;
    }
    for (const auto& [k, v] : entries(node)) {
      const std::string_view key = k.Scalar();
      if (key == "equals") {
        m.equals = docToJson(v);
      } else if (key == "one_of") {
        nlohmann::json values = docToJson(v);
        if (!values.is_array() || values.empty()) {
          error(v, what + ".one_of: expected a non-empty list");
        } else {
          m.one_of = values.get<std::vector<nlohmann::json>>();
        }
      } else if (key == "glob") {
        m.glob = strings(v, what + ".glob");
      } else if (key == "regex") {
        m.regex = strings(v, what + ".regex");
      } else {
        error(k, unknownNameMessage(what + ": unknown matcher", key, "",
                                    "equals, one_of, glob, regex"));
      }
    }
    if (!m.equals && m.one_of.empty() && m.glob.empty() && m.regex.empty()) {
      error(node, what + ": expected equals, one_of, glob or regex");
    }
    return m;
  }

  std::vector<std::pair<std::string, ValueMatcher>> namedMatchers(const DocNode& node,
                                                                  const std::string& what) {
    std::vector<std::pair<std::string, ValueMatcher>> out;
    if (!node.IsMap()) {
      error(node, what + ": expected a mapping from name to matcher");
      return out;
    }
    for (const auto& [k, v] : entries(node)) {
      out.emplace_back(k.Scalar(), valueMatcher(v, what + "." + k.Scalar()));
    }
    return out;
  }

  // shell: "git push *" | [patterns] | {command: ..., regex: ..., writes: ...}
  ShellMatcher shellMatcher(const DocNode& node) {
    ShellMatcher m;
    m.where = where(node);
    if (node.IsScalar() || node.IsSequence()) {
      m.tokens = strings(node, "shell");
      return m;
    }
    if (!node.IsMap()) {
      error(node, "shell: expected a token pattern, a list of them, or a mapping");
      return m;
    }
    for (const auto& [k, v] : entries(node)) {
      const std::string_view key = k.Scalar();
      if (key == "command") {
        m.tokens = strings(v, "shell.command");
      } else if (key == "regex") {
        m.regex = strings(v, "shell.regex");
      } else if (key == "writes") {
        m.writes = strings(v, "shell.writes");
        checkPathGlobs(v, m.writes);
      } else {
        error(k, unknownNameMessage("shell: unknown matcher", key, "", "command, regex, writes"));
      }
    }
    return m;
  }

  // A path glob that can never match a path as toolguard compares them
  // (absolute, with `.` and `..` resolved) is an error, not a silent gap.
  void checkPathGlobs(const DocNode& node, const std::vector<std::string>& globs) {
    for (const std::string& g : globs) {
      if (std::optional<std::string> problem = detail::pathGlobProblem(g)) error(node, *problem);
    }
  }

  PathMatcher pathMatcher(const DocNode& node) {
    PathMatcher m;
    m.where = where(node);
    if (node.IsScalar() || node.IsSequence()) {
      m.glob = strings(node, "path");  // shorthand: a glob or a list of globs
      checkPathGlobs(node, m.glob);
      return m;
    }
    if (!node.IsMap()) {
      error(node, "path: expected a glob or a mapping");
      return m;
    }
    for (const auto& [k, v] : entries(node)) {
      const std::string_view key = k.Scalar();
      if (key == "glob") {
        m.glob = strings(v, "path.glob");
        checkPathGlobs(v, m.glob);
      } else if (key == "regex") {
        m.regex = strings(v, "path.regex");
      } else if (key == "outside_workspace") {
        m.outside_workspace = boolean(v, "path.outside_workspace");
      } else if (key == "except") {
        m.except = strings(v, "path.except");
        checkPathGlobs(v, m.except);
      } else {
        error(k, unknownNameMessage("path: unknown matcher", key, "",
                                    "glob, regex, outside_workspace, except"));
      }
    }
    if (m.glob.empty() && m.regex.empty() && !m.outside_workspace) {
      error(node, "path: expected glob, regex or outside_workspace");
    }
    return m;
  }

  // The tool a string example is a call of: the rule's first exact tool name,
  // else a catalog tool of the rule's first kind.
  const ToolInfo* exampleTool(const RuleSpec& rule) {
    for (const auto& name : rule.header.target.tools) {
      if (!isWildcard(name)) return examples_catalog_->find(name);
    }
    static const std::pair<ToolKind, const char*> kByKind[] = {
        {ToolKind::Shell, "Bash"},       {ToolKind::FileWrite, "Write"},
        {ToolKind::FileRead, "Read"},    {ToolKind::FileSearch, "Grep"},
        {ToolKind::Network, "WebFetch"},
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

  std::optional<RuleExample> example(const DocNode& node, const RuleSpec& rule, bool should_match) {
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

  void exampleContext(const DocNode& node, CallContext& context) {
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

  void parseExamples(const DocNode& node, RuleSpec& rule) {
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

  void parseRules(const DocNode& node, PolicyDocument& doc) {
    if (!node.IsSequence()) {
      error(node, "rules: expected a list of rules");
      return;
    }
    for (const DocNode& item : node.items()) {
      if (!item.IsMap()) {
        error(item, "rule: expected a mapping");
        continue;
      }
      doc.rules.push_back(parseRule(item, /*is_case=*/false));
    }
  }

  // One key a rule and a first_match case share (target, conditions, verdict,
  // reason); false when `key` is not one of them.
  bool ruleField(std::string_view key, const DocNode& v, RuleSpec& rule, bool& has_verdict) {
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
    } else if (key == "command") {
      rule.command = valueMatcher(v, "command");
    } else if (key == "path") {
      rule.path = pathMatcher(v);
    } else if (key == "shell") {
      rule.shell = shellMatcher(v);
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

  // A `rules:` entry, or (is_case) one case of a rule's `first_match` list.
  RuleSpec parseRule(const DocNode& item, bool is_case) {
    RuleSpec rule;
    rule.header.source = where(item);
    rule.header.layer = layer_;
    bool has_verdict = false;
    bool has_conditions = false;
    bool files = false;
    const DocNode* examples = nullptr;
    const DocNode* cases = nullptr;
    for (const auto& [k, v] : entries(item)) {
      const std::string_view key = k.Scalar();
      if (key == "id") {
        if (auto s = scalar(v, "id")) rule.header.id = *s;
      } else if (key == "examples" && !is_case) {
        examples = &v;
      } else if (key == "first_match" && !is_case) {
        cases = &v;
      } else if (key == "files") {
        // Files under these globs, by every route: file tools, MCP tools, the shell.
        if (rule.path) error(k, "files: a rule has either files or path, not both");
        rule.path = pathMatcher(v);
        files = true;
        has_conditions = true;
      } else if (key == "path" && files) {
        error(k, "path: a rule has either files or path, not both");
      } else if (ruleField(key, v, rule, has_verdict)) {
        has_conditions = has_conditions || (key != "tool" && key != "category" && key != "kind" &&
                                            key != "description");
      } else if (is_case) {
        error(k, unknownNameMessage("unknown key", key, " in a first_match case",
                                    "id, tool, category, kind, max_risk, args, command, path, "
                                    "files, shell, context, verdict, reason, description"));
      } else {
        error(k, unknownNameMessage("unknown key", key, " in a rule",
                                    "id, tool, category, kind, max_risk, args, command, path, "
                                    "files, shell, context, verdict, reason, description, "
                                    "examples, first_match"));
      }
    }
    if (rule.shell && rule.header.target.tools.empty() && rule.header.target.kinds.empty() &&
        rule.header.target.categories.empty()) {
      rule.header.target.kinds.push_back(ToolKind::Shell);  // shell: implies shell tools
    }
    if (files && rule.path && rule.header.target.tools.empty() &&
        rule.header.target.kinds.empty() && rule.header.target.categories.empty()) {
      // files: implies every read and write, whatever the tool.
      rule.header.target.kinds = {ToolKind::FileRead, ToolKind::FileWrite, ToolKind::FileSearch};
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
    if (examples && read_examples_) parseExamples(*examples, rule);
    return rule;
  }

  void parseCases(const DocNode& node, RuleSpec& rule) {
    if (!node.IsSequence() || node.size() == 0) {
      error(node, "first_match: expected a non-empty list of cases");
      return;
    }
    for (const DocNode& item : node.items()) {
      if (!item.IsMap()) {
        error(item, "first_match case: expected a mapping");
        continue;
      }
      rule.first_match.push_back(parseRule(item, /*is_case=*/true));
    }
  }

  std::string name_;
  PolicyLayer layer_;
  const ToolCatalog& catalog_;
  bool read_examples_ = true;
  ToolCatalog local_catalog_;                        // the catalog and this file's tools
  const ToolCatalog* examples_catalog_ = &catalog_;  // what string examples call
  std::vector<PolicyDiagnostic> errors_;
};

}  // namespace

PolicyDocument parsePolicyDocument(std::string_view text, const std::string& name,
                                   PolicyLayer layer, const ToolCatalog& catalog) {
  return Parser(name, layer, catalog).parse(parseYamlDocument(text, name));
}

PolicyDocument parsePolicyTree(const DocNode& root, const std::string& name, PolicyLayer layer,
                               const ToolCatalog& catalog, bool read_examples) {
  return Parser(name, layer, catalog, read_examples).parse(root);
}

}  // namespace toolguard::detail
