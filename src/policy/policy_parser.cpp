// Policy files (YAML) to PolicyDocument: the document, and reading values
// (keys, strings, booleans, verdicts, durations) with file:line:column errors.
#include "policy_file_parser.hpp"

namespace toolguard::detail {

PolicyDocument PolicyFileParser::parse(const DocNode& root) {
  PolicyDocument doc;
  doc.name = name_;
  if (root.IsNull()) return doc;  // an empty file is an empty policy
  if (!root.IsMap()) {
    error(root, "expected a mapping with keys version, default, tools, rules");
    finish();
  }
  const DocNode* rules = nullptr;
  const DocNode* labels = nullptr;
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
    } else if (k == "sandbox") {
      parseSandbox(value, doc);
    } else if (k == "labels") {
      labels = &value;
    } else if (k == "sessions") {
      parseSessions(value, doc);
    } else if (k == "tests") {
      // The file's own test cases, with the verdicts the policy must give:
      // `toolguard test` runs them (policy_tests.hpp); deciding ignores them.
    } else {
      error(key, unknownNameMessage("unknown key", k, "",
                                    "version, default, tools, rules, builtin_rules, "
                                    "trusted_projects, paths, limits, rate_limits, llm, sandbox, "
                                    "labels, sessions, tests"));
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
  if (labels) parseLabels(*labels, doc);
  for (LabelSpec& spec : after_labels_) doc.labels.push_back(std::move(spec));
  finish();
  return doc;
}

void PolicyFileParser::error(const DocNode& node, std::string message) {
  errors_.push_back({where(node), std::move(message)});
}

void PolicyFileParser::finish() {
  if (!errors_.empty()) throw PolicyError(std::move(errors_));
}

// Map entries in order, reporting duplicate keys and non-scalar keys.
// Whether `key` is among the keys read so far. A mapping of a policy has a
// handful of keys, which a scan finds faster than a set; a large one (a
// file written to slow the guard down) gets a hash set.
bool PolicyFileParser::isDuplicate(
    const std::vector<std::pair<const DocNode&, const DocNode&>>& read, std::string_view key,
    std::unordered_set<std::string_view>& large) {
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

std::vector<std::pair<const DocNode&, const DocNode&>> PolicyFileParser::entries(
    const DocNode& map) {
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

std::optional<std::string> PolicyFileParser::scalar(const DocNode& node, const std::string& what) {
  if (!node.IsScalar()) {
    error(node, what + ": expected a string");
    return std::nullopt;
  }
  return node.Scalar();
}

std::vector<std::string> PolicyFileParser::strings(const DocNode& node, const std::string& what) {
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

std::optional<bool> PolicyFileParser::boolean(const DocNode& node, const std::string& what) {
  if (node.IsScalar()) {
    nlohmann::json value = docToJson(node);
    if (value.is_boolean()) return value.get<bool>();
  }
  error(node, what + ": expected true or false");
  return std::nullopt;
}

std::optional<Verdict> PolicyFileParser::verdict(const DocNode& node, const std::string& what) {
  return named<Verdict>(node, what, parseVerdict, "allow, escalate, ask, deny, abort");
}

std::optional<size_t> PolicyFileParser::count(const DocNode& node, const std::string& what,
                                              size_t low, size_t high) {
  nlohmann::json value = node.IsScalar() ? docToJson(node) : nlohmann::json();
  if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<uint64_t>() < low ||
      value.get<uint64_t>() > high) {
    error(node, what + ": expected a whole number from " + std::to_string(low) + " to " +
                    std::to_string(high));
    return std::nullopt;
  }
  return static_cast<size_t>(value.get<uint64_t>());
}

// `window: 60s`: a whole number with ms, s, m or h.
std::optional<std::chrono::milliseconds> PolicyFileParser::duration(const DocNode& node,
                                                                    const std::string& what) {
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

PolicyDocument parsePolicyDocument(std::string_view text, const std::string& name,
                                   PolicyLayer layer, const ToolCatalog& catalog) {
  return PolicyFileParser(name, layer, catalog).parse(parseYamlDocument(text, name));
}

PolicyDocument parsePolicyTree(const DocNode& root, const std::string& name, PolicyLayer layer,
                               const ToolCatalog& catalog, bool read_examples, TreeChecks checks) {
  return PolicyFileParser(name, layer, catalog, read_examples, checks).parse(root);
}

}  // namespace toolguard::detail
