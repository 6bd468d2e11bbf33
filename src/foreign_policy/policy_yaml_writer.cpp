// Writing a policy document as toolguard YAML, with comments pointing at the
// source lines.
#include "policy_yaml_writer.hpp"

#include <yaml-cpp/yaml.h>

#include <sstream>

namespace toolguard::detail {
namespace {

void writeJson(YAML::Emitter& out, const nlohmann::json& value) {
  if (value.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.items()) {
      out << YAML::Key << key << YAML::Value;
      writeJson(out, item);
    }
    out << YAML::EndMap;
  } else if (value.is_array()) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const auto& item : value) writeJson(out, item);
    out << YAML::EndSeq;
  } else if (value.is_string()) {
    // Quoted, so that "yes", "5" or "null" stay strings when read back.
    out << YAML::DoubleQuoted << value.get<std::string>();
  } else if (value.is_null()) {
    out << YAML::Null;
  } else {
    out << value.dump();  // numbers and booleans, as YAML 1.2 reads them
  }
}

void writeStrings(YAML::Emitter& out, const std::vector<std::string>& items) {
  if (items.size() == 1) {
    out << YAML::DoubleQuoted << items.front();
    return;
  }
  out << YAML::Flow << YAML::BeginSeq;
  for (const std::string& item : items) out << YAML::DoubleQuoted << item;
  out << YAML::EndSeq;
}

void writeValueMatcher(YAML::Emitter& out, const ValueMatcher& m) {
  out << YAML::BeginMap;
  if (m.equals) {
    out << YAML::Key << "equals" << YAML::Value;
    writeJson(out, *m.equals);
  }
  if (!m.one_of.empty()) {
    out << YAML::Key << "one_of" << YAML::Value;
    writeJson(out, nlohmann::json(m.one_of));
  }
  if (!m.glob.empty()) {
    out << YAML::Key << "glob" << YAML::Value;
    writeStrings(out, m.glob);
  }
  if (!m.regex.empty()) {
    out << YAML::Key << "regex" << YAML::Value;
    writeStrings(out, m.regex);
  }
  if (m.web_url) {
    out << YAML::Key << "web_url" << YAML::Value
        << (*m.web_url == WebUrlKind::Public ? "public" : "loopback");
  }
  out << YAML::EndMap;
}

void writeNamedMatchers(YAML::Emitter& out, const char* key,
                        const std::vector<std::pair<std::string, ValueMatcher>>& matchers) {
  if (matchers.empty()) return;
  out << YAML::Key << key << YAML::Value << YAML::BeginMap;
  for (const auto& [name, matcher] : matchers) {
    out << YAML::Key << name << YAML::Value;
    writeValueMatcher(out, matcher);
  }
  out << YAML::EndMap;
}

void writeTarget(YAML::Emitter& out, const RuleTarget& target) {
  if (!target.tools.empty()) {
    out << YAML::Key << "tool" << YAML::Value;
    writeStrings(out, target.tools);
  }
  if (!target.categories.empty()) {
    out << YAML::Key << "category" << YAML::Value;
    writeStrings(out, target.categories);
  }
  if (!target.kinds.empty()) {
    std::vector<std::string> kinds;
    for (ToolKind kind : target.kinds) kinds.emplace_back(toString(kind));
    out << YAML::Key << "kind" << YAML::Value;
    writeStrings(out, kinds);
  }
}

void writeConditions(YAML::Emitter& out, const RuleSpec& rule) {
  if (rule.risk_above) {
    out << YAML::Key << "max_risk" << YAML::Value << std::string(toString(*rule.risk_above));
  }
  writeNamedMatchers(out, "args", rule.args);
  if (!rule.sandbox_writable.empty() || !rule.sandbox_hosts.empty()) {
    out << YAML::Key << "sandbox" << YAML::Value << YAML::BeginMap;
    if (rule.only_confined) out << YAML::Key << "required" << YAML::Value << true;
    for (const auto& [name, list] :
         {std::pair{"writable", &rule.sandbox_writable}, std::pair{"hosts", &rule.sandbox_hosts}}) {
      if (list->empty()) continue;
      out << YAML::Key << name << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const std::string& entry : *list) out << YAML::DoubleQuoted << entry;
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
  } else if (rule.only_confined) {
    out << YAML::Key << "sandbox" << YAML::Value << "required";
  }
  if (rule.only_args) {
    out << YAML::Key << "only_args" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& name : *rule.only_args) out << YAML::DoubleQuoted << name;
    out << YAML::EndSeq;
  }
  if (rule.command) {
    out << YAML::Key << "command" << YAML::Value;
    writeValueMatcher(out, *rule.command);
  }
  if (rule.path) {
    out << YAML::Key << "path" << YAML::Value << YAML::BeginMap;
    if (!rule.path->glob.empty()) {
      out << YAML::Key << "glob" << YAML::Value;
      writeStrings(out, rule.path->glob);
    }
    if (!rule.path->regex.empty()) {
      out << YAML::Key << "regex" << YAML::Value;
      writeStrings(out, rule.path->regex);
    }
    if (rule.path->outside_workspace) {
      out << YAML::Key << "outside_workspace" << YAML::Value << *rule.path->outside_workspace;
    }
    out << YAML::EndMap;
  }
  if (rule.local) out << YAML::Key << "local" << YAML::Value << *rule.local;
  if (rule.shell) {
    out << YAML::Key << "shell" << YAML::Value << YAML::BeginMap;
    if (!rule.shell->tokens.empty()) {
      out << YAML::Key << "command" << YAML::Value;
      writeStrings(out, rule.shell->tokens);
    }
    if (!rule.shell->regex.empty()) {
      out << YAML::Key << "regex" << YAML::Value;
      writeStrings(out, rule.shell->regex);
    }
    if (!rule.shell->writes.empty()) {
      out << YAML::Key << "writes" << YAML::Value;
      writeStrings(out, rule.shell->writes);
    }
    out << YAML::EndMap;
  }
  writeNamedMatchers(out, "context", rule.context);
}

void writeExamples(YAML::Emitter& out, const std::vector<RuleExample>& examples) {
  if (examples.empty()) return;
  out << YAML::Key << "examples" << YAML::Value << YAML::BeginMap;
  for (bool should_match : {true, false}) {
    bool any = false;
    for (const RuleExample& ex : examples) any = any || ex.should_match == should_match;
    if (!any) continue;
    out << YAML::Key << (should_match ? "match" : "not_match") << YAML::Value << YAML::BeginSeq;
    for (const RuleExample& ex : examples) {
      if (ex.should_match != should_match) continue;
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "tool" << YAML::Value << ex.call.tool
          << YAML::Key << "args" << YAML::Value;
      writeJson(out, ex.call.args);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

void writeRule(YAML::Emitter& out, const RuleSpec& rule) {
  // The comment goes at the end of the rule's first line: a comment the
  // emitter is given before the rule's mapping lands on the line before it,
  // which is the previous rule's last line.
  bool commented = rule.header.source.file.empty();
  auto comment = [&] {
    if (commented) return;
    out << YAML::Comment("from " + rule.header.source.toString());
    commented = true;
  };
  out << YAML::BeginMap;
  if (!rule.header.id.empty()) {
    out << YAML::Key << "id" << YAML::Value << rule.header.id;
    comment();
  }
  writeTarget(out, rule.header.target);
  comment();
  if (!rule.first_match.empty()) {
    out << YAML::Key << "first_match" << YAML::Value << YAML::BeginSeq;
    for (const RuleSpec& c : rule.first_match) writeRule(out, c);
    out << YAML::EndSeq;
  } else {
    writeConditions(out, rule);
    out << YAML::Key << "verdict" << YAML::Value << std::string(toString(rule.verdict));
    if (!rule.reason.empty()) out << YAML::Key << "reason" << YAML::Value << rule.reason;
  }
  writeExamples(out, rule.examples);
  out << YAML::EndMap;
}

}  // namespace

std::string writePolicyYaml(const ForeignPolicy& imported, const std::string& source_description) {
  const PolicyDocument& doc = imported.document;
  std::ostringstream head;
  head << "# toolguard policy imported from " << source_description << "\n";
  head << "# Each rule names the source line it came from.\n";
  if (!imported.notes.empty()) {
    head << "#\n# Where toolguard reads the source more strictly, or cannot express it:\n";
    for (const ImportNote& note : imported.notes) {
      head << "#   " << note.where.toString() << ": " << note.message << "\n";
    }
  }
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1;
  if (!doc.workspace_roots.empty()) {
    out << YAML::Key << "paths" << YAML::Value << YAML::BeginMap << YAML::Key << "workspace_roots"
        << YAML::Value << YAML::BeginSeq;
    for (const std::string& root : doc.workspace_roots) out << YAML::DoubleQuoted << root;
    out << YAML::EndSeq << YAML::EndMap;
  }
  if (!doc.rules.empty()) {
    out << YAML::Key << "rules" << YAML::Value << YAML::BeginSeq;
    for (const RuleSpec& rule : doc.rules) writeRule(out, rule);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return head.str() + out.c_str() + "\n";
}

}  // namespace toolguard::detail
