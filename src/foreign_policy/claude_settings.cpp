// Reading the `permissions` block of a Claude Code settings.json into
// toolguard's policy model (docs/formats/claude-code-permissions.md).
#include "foreign_policy/claude_json_locations.hpp"
#include "foreign_policy/claude_path_rules.hpp"
#include "foreign_policy/claude_rule_mapping.hpp"
#include "foreign_policy/claude_settings_location.hpp"
#include "foreign_policy/foreign_policy.hpp"
#include "toolguard/paths.hpp"
#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

// What the import is building, and the problems it found so far.
struct Import {
  const LocatedJson& json;
  PolicyLayer layer;
  ClaudeSettingsLocation location;
  ForeignPolicy out;
  std::vector<PolicyDiagnostic> errors;

  // Tells the user something about the source at `where`.
  void note(const SourceLocation& where, std::string message) {
    out.notes.push_back(ImportNote{where, std::move(message)});
  }
};

// Sets a mapped rule's identity and verdict, checks that it compiles, and
// adds it to the document.
void addRule(Import& im, RuleSpec spec, std::string id, const ClaudeRuleContext& rule) {
  spec.header.id = std::move(id);
  spec.header.source = rule.where;
  spec.header.layer = im.layer;
  spec.verdict = rule.verdict;
  spec.reason = "Claude Code settings: " + rule.list + " " + rule.text;
  try {
    (void)compileRule(spec);
  } catch (const PolicyError& e) {
    im.errors.insert(im.errors.end(), e.errors().begin(), e.errors().end());
    return;
  }
  im.out.document.rules.push_back(std::move(spec));
}

// One rule string of an allow, ask or deny list.
void readRule(Import& im, const nlohmann::json& value, const std::string& pointer,
              const std::string& list, Verdict verdict, size_t index) {
  const SourceLocation where = im.json.at(pointer);
  if (!value.is_string()) {
    im.errors.push_back({where, "permissions." + list + "[" + std::to_string(index) +
                                    "]: expected a rule string, found " + value.type_name()});
    return;
  }
  ClaudeRuleContext rule;
  rule.text = value.get<std::string>();
  rule.list = list;
  rule.verdict = verdict;
  rule.where = where;
  rule.anchors = im.location.anchors;
  const Expected<ClaudeRuleText> text = splitClaudeRule(rule.text);
  if (!text) {
    im.errors.push_back({where, text.error()});
    return;
  }
  try {
    ClaudeMapping mapped = mapClaudeRule(*text, rule);
    for (std::string& n : mapped.notes) im.note(where, rule.text + ": " + n);
    if (mapped.rule) {
      addRule(im, std::move(*mapped.rule),
              "claude-" + im.location.scope + "-" + list + "-" + std::to_string(index + 1), rule);
    }
  } catch (const PolicyError& e) {
    im.errors.insert(im.errors.end(), e.errors().begin(), e.errors().end());
  }
}

// `allow`, `ask` or `deny`: a list of rule strings.
void readRuleList(Import& im, const nlohmann::json& value, const std::string& pointer,
                  const std::string& list, Verdict verdict) {
  if (!value.is_array()) {
    im.errors.push_back(
        {im.json.at(pointer),
         "permissions." + list + ": expected a list of rule strings, found " + value.type_name()});
    return;
  }
  for (size_t i = 0; i < value.size(); ++i) {
    readRule(im, value[i], childPointer(pointer, std::to_string(i)), list, verdict, i);
  }
}

// `additionalDirectories`: more working directories, toolguard's workspace roots.
void readDirectories(Import& im, const nlohmann::json& value, const std::string& pointer) {
  if (!value.is_array()) {
    im.errors.push_back({im.json.at(pointer),
                         "permissions.additionalDirectories: expected a "
                         "list of directories, found " +
                             std::string(value.type_name())});
    return;
  }
  for (size_t i = 0; i < value.size(); ++i) {
    const SourceLocation where = im.json.at(childPointer(pointer, std::to_string(i)));
    if (!value[i].is_string()) {
      im.errors.push_back({where,
                           "permissions.additionalDirectories: expected a directory, "
                           "found " +
                               std::string(value[i].type_name())});
      continue;
    }
    const std::string dir = value[i].get<std::string>();
    if (Expected<void> characters = checkPathCharacters(dir); !characters) {
      im.errors.push_back({where, "permissions.additionalDirectories: " + characters.error()});
      continue;
    }
    im.out.document.workspace_roots.push_back(dir);
  }
  if (!im.out.document.workspace_roots.empty()) im.out.document.paths_where = im.json.at(pointer);
}

// `defaultMode`: how Claude Code treats calls no rule decides; not expressed.
void readDefaultMode(Import& im, const nlohmann::json& value, const SourceLocation& where) {
  const std::string mode = value.is_string() ? value.get<std::string>() : value.dump();
  if (mode == "default" || mode == "manual") return;  // ask where nothing else decides
  std::string message = "permissions.defaultMode '" + mode +
                        "' is not expressed: toolguard's tool policies and default verdict "
                        "decide the calls no rule matches";
  if (mode == "bypassPermissions" || mode == "auto" || mode == "acceptEdits") {
    message += " (toolguard does not skip its checks)";
  }
  im.note(where, message);
}

// `blockReadsOutsideWorkingDirectories: true`: the file tools refuse paths
// outside the working directories, which is a deny rule in toolguard.
void readBlockReads(Import& im, const nlohmann::json& value, const SourceLocation& where) {
  if (value != true) return;
  RuleSpec spec;
  spec.header.target.tools = claudeReadTools();
  spec.path.emplace();
  spec.path->outside_workspace = true;
  spec.path->where = where;
  ClaudeRuleContext rule;
  rule.text = "blockReadsOutsideWorkingDirectories";
  rule.list = "permissions";
  rule.verdict = Verdict::Deny;
  rule.where = where;
  addRule(im, std::move(spec), "claude-" + im.location.scope + "-block-reads-outside", rule);
}

// One key of the permissions block.
void readPermission(Import& im, const std::string& key, const nlohmann::json& value) {
  const std::string pointer = childPointer("/permissions", key);
  const SourceLocation where = im.json.at(pointer);
  if (key == "allow") return readRuleList(im, value, pointer, key, Verdict::Allow);
  if (key == "ask") return readRuleList(im, value, pointer, key, Verdict::Ask);
  if (key == "deny") return readRuleList(im, value, pointer, key, Verdict::Deny);
  if (key == "additionalDirectories") return readDirectories(im, value, pointer);
  if (key == "defaultMode") return readDefaultMode(im, value, where);
  if (key == "blockReadsOutsideWorkingDirectories") return readBlockReads(im, value, where);
  if (key == "disableBypassPermissionsMode" || key == "disableAutoMode") {
    return im.note(where, "permissions." + key +
                              " has no effect in toolguard, which has no mode that skips checks");
  }
  im.note(where, "permissions." + key + " is not read by toolguard");
}

}  // namespace

ForeignPolicy importClaudeSettings(std::string_view text, const std::string& file,
                                   PolicyLayer layer) {
  ForeignPolicy empty;
  empty.document.name = file;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return empty;
  const LocatedJson json = parseLocatedJson(text, file);
  if (!json.value.is_object()) {
    throw PolicyError(json.at(""), std::string("a Claude Code settings file holds a JSON object, "
                                               "found ") +
                                       json.value.type_name());
  }
  const auto permissions = json.value.find("permissions");
  if (permissions == json.value.end()) return empty;
  if (!permissions->is_object()) {
    throw PolicyError(
        json.at("/permissions"),
        std::string("permissions: expected an object, found ") + permissions->type_name());
  }
  Import im{json, layer, claudeSettingsLocation(file), std::move(empty), {}};
  for (const auto& [key, value] : permissions->items()) readPermission(im, key, value);
  if (!im.errors.empty()) throw PolicyError(std::move(im.errors));
  return std::move(im.out);
}

}  // namespace toolguard::detail
