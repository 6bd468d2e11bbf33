// Reading a Gemini CLI policy file's TOML: the `[[rule]]` tables checked
// against Gemini CLI's schema (docs/formats/gemini-cli-policy.md). The only
// file that includes toml++ (header-only).
#define TOML_HEADER_ONLY 1
#include <toml++/toml.h>

#include <algorithm>
#include <set>

#include "formats/gemini_regex.hpp"
#include "formats/gemini_rule.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail::gemini {
namespace {

// Reads the `[[rule]]` tables of one file, collecting every error.
class RuleReader {
 public:
  RuleReader(const std::string& file, std::vector<PolicyDiagnostic>& errors)
      : file_(file), errors_(errors) {}

  // One table; nullopt (with errors recorded) when it breaks the schema.
  std::optional<GeminiRule> read(const toml::table& table) {
    GeminiRule rule;
    rule.where = at(table.source());
    rule.file = file_;
    const size_t errors_before = errors_.size();
    bool has_decision = false;
    bool has_priority = false;
    for (const auto& [key, node] : table) {
      const std::string k(key.str());
      if (k == "toolName") {
        rule.tool_names = strings(node, k);
      } else if (k == "commandPrefix") {
        rule.command_prefixes = strings(node, k);
      } else if (k == "mcpName" || k == "argsPattern" || k == "commandRegex") {
        std::optional<Field> f = string(node, k);
        if (f && f->text.empty()) error(node, k + ": must not be empty");
        (k == "mcpName"       ? rule.mcp_name
         : k == "argsPattern" ? rule.args_pattern
                              : rule.command_regex) = f;
      } else if (k == "decision") {
        has_decision = readDecision(node, rule);
      } else if (k == "priority") {
        has_priority = readPriority(node, rule);
      } else if (k == "modes") {
        readModes(node, rule);
      } else if (k == "interactive" || k == "allowRedirection" || k == "allow_redirection") {
        readFlag(node, k, rule);
      } else if (k == "subagent") {
        if (std::optional<Field> f = string(node, k)) rule.subagent = f->text;
      } else if (k == "denyMessage" || k == "deny_message") {
        if (std::optional<Field> f = string(node, k)) rule.deny_message = f->text;
      } else if (k == "toolAnnotations") {
        rule.has_annotations = true;
        if (!node.is_table()) error(node, k + ": expected a table");
      } else {
        rule.ignored_keys.push_back(k);
      }
    }
    if (!has_decision) errorAt(rule.where, "rule: decision is required (allow, deny, ask_user)");
    if (!has_priority) errorAt(rule.where, "rule: priority is required (an integer 0..999)");
    checkCombination(rule);
    checkPatterns(rule);
    if (errors_.size() != errors_before) return std::nullopt;
    return rule;
  }

 private:
  // Where a node starts in the file.
  SourceLocation at(const toml::source_region& region) const {
    return {file_, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
  }
  // Records an error at a position.
  void errorAt(SourceLocation where, std::string message) {
    errors_.push_back({std::move(where), std::move(message)});
  }
  // Records an error at a node.
  void error(const toml::node& node, std::string message) {
    errorAt(at(node.source()), std::move(message));
  }

  // A string field.
  std::optional<Field> string(const toml::node& node, const std::string& key) {
    if (const auto* s = node.as_string()) return Field{s->get(), at(node.source())};
    error(node, key + ": expected a string");
    return std::nullopt;
  }

  // A string or a list of strings (toolName, commandPrefix); never empty.
  std::vector<Field> strings(const toml::node& node, const std::string& key) {
    std::vector<Field> out;
    if (const auto* array = node.as_array(); array != nullptr) {
      for (const toml::node& item : *array) {
        if (std::optional<Field> f = string(item, key)) out.push_back(std::move(*f));
      }
      if (array->empty()) error(node, key + ": the list is empty");
    } else if (std::optional<Field> f = string(node, key)) {
      out.push_back(std::move(*f));
    }
    for (const Field& f : out) {
      if (f.text.empty()) errorAt(f.where, key + ": must not be empty");
    }
    return out;
  }

  // decision: allow, deny or ask_user. True: the key was present.
  bool readDecision(const toml::node& node, GeminiRule& rule) {
    std::optional<Field> f = string(node, "decision");
    if (!f) return true;
    if (f->text == "allow") {
      rule.decision = Verdict::Allow;
    } else if (f->text == "deny") {
      rule.decision = Verdict::Deny;
    } else if (f->text == "ask_user") {
      rule.decision = Verdict::Ask;
    } else {
      error(node, "decision: unknown value '" + f->text + "' (expected allow, deny, ask_user)");
    }
    return true;
  }

  // priority: an integer 0..999 (an integral float is accepted, as by zod's
  // int()). True: the key was present.
  bool readPriority(const toml::node& node, GeminiRule& rule) {
    std::optional<double> value;
    if (const auto* i = node.as_integer()) value = static_cast<double>(i->get());
    if (const auto* d = node.as_floating_point()) value = d->get();
    if (!value || *value != static_cast<double>(static_cast<long long>(*value))) {
      error(node, "priority: expected an integer");
    } else if (*value < 0 || *value > 999) {
      error(node, "priority: must be 0..999 (Gemini CLI adds it to the tier as priority/1000)");
    } else {
      rule.priority = static_cast<int>(*value);
    }
    return true;
  }

  // modes: a list of Gemini CLI's approval modes.
  void readModes(const toml::node& node, GeminiRule& rule) {
    static const std::set<std::string> known = {"default", "autoEdit", "yolo", "plan"};
    for (const Field& m : strings(node, "modes")) {
      if (known.count(m.text) == 0) {
        errorAt(m.where,
                "modes: unknown approval mode '" + m.text + "' (default, autoEdit, yolo, plan)");
      }
      rule.modes.push_back(m.text);
    }
  }

  // interactive, allowRedirection, allow_redirection: booleans.
  void readFlag(const toml::node& node, const std::string& key, GeminiRule& rule) {
    const auto* b = node.as_boolean();
    if (b == nullptr) return error(node, key + ": expected true or false");
    if (key == "interactive") {
      rule.interactive = b->get();
    } else {
      rule.allow_redirection = b->get();
    }
  }

  // The schema's cross-field rules (validateShellCommandSyntax in toml-loader.ts).
  void checkCombination(const GeminiRule& rule) {
    if (rule.tool_names.empty() && !rule.mcp_name) {
      errorAt(rule.where, "rule: toolName is required (use \"*\" for every tool)");
    }
    if (rule.command_prefixes.empty() && !rule.command_regex) return;
    if (rule.tool_names.size() != 1 || rule.tool_names[0].text != "run_shell_command" ||
        rule.mcp_name) {
      errorAt(rule.where,
              "rule: commandPrefix and commandRegex need toolName = \"run_shell_command\"");
    }
    if (rule.args_pattern) {
      errorAt(rule.args_pattern->where,
              "argsPattern: cannot be combined with commandPrefix or commandRegex");
    }
    if (!rule.command_prefixes.empty() && rule.command_regex) {
      errorAt(rule.command_regex->where, "commandRegex: cannot be combined with commandPrefix");
    }
  }

  // Patterns must be readable by RE2 (no lookaround, no backreferences).
  void checkPatterns(const GeminiRule& rule) {
    const std::pair<const std::optional<Field>*, const char*> patterns[] = {
        {&rule.args_pattern, "argsPattern"}, {&rule.command_regex, "commandRegex"}};
    for (const auto& [field, what] : patterns) {
      if (!*field || (*field)->text.empty()) continue;
      try {
        (void)readJsPattern((*field)->text, (*field)->where, what);
      } catch (const PolicyError& e) {
        errors_.insert(errors_.end(), e.errors().begin(), e.errors().end());
      }
    }
  }

  const std::string& file_;
  std::vector<PolicyDiagnostic>& errors_;
};

// The file's TOML, or a PolicyError naming where it breaks.
toml::table parseToml(std::string_view text, const std::string& file) {
  try {
    return toml::parse(text, std::string_view(file));
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw PolicyError(
        SourceLocation{file, static_cast<int>(begin.line), static_cast<int>(begin.column)},
        "invalid TOML: " + std::string(e.description()));
  }
}

}  // namespace

std::vector<GeminiRule> readGeminiRules(std::string_view text, const std::string& file,
                                        std::vector<ImportNote>& notes) {
  const toml::table root = parseToml(text, file);
  std::vector<PolicyDiagnostic> errors;
  RuleReader reader(file, errors);
  std::vector<GeminiRule> rules;
  for (const auto& [key, node] : root) {
    const SourceLocation where{file, static_cast<int>(node.source().begin.line),
                               static_cast<int>(node.source().begin.column)};
    if (key.str() == "safety_checker") {
      notes.push_back({where,
                       "[[safety_checker]] tables are not imported (toolguard cannot run "
                       "Gemini CLI's checkers)"});
      continue;
    }
    if (key.str() != "rule") {
      std::string message = "'";  // appends: GCC 12 -O2 -Wrestrict on "lit" + std::string
      message.append(key.str()).append("' is ignored (not a policy key)");
      notes.push_back({where, std::move(message)});
      continue;
    }
    const auto* array = node.as_array();
    if (array == nullptr) {
      errors.push_back({where, "rule: expected [[rule]] tables"});
      continue;
    }
    for (const toml::node& item : *array) {
      const auto* table = item.as_table();
      if (table == nullptr) {
        errors.push_back({where, "rule: expected [[rule]] tables"});
      } else if (std::optional<GeminiRule> rule = reader.read(*table)) {
        rules.push_back(std::move(*rule));
      }
    }
  }
  if (!errors.empty()) throw PolicyError(std::move(errors));
  return rules;
}

}  // namespace toolguard::detail::gemini
