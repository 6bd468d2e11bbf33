// required, properties / patternProperties / additionalProperties (one check:
// what is "additional" depends on the other two), minProperties and
// maxProperties, propertyNames. The dependency keywords are in
// keywords_dependencies.cpp.
#include <re2/re2.h>

#include <algorithm>
#include <string>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/regex.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

class RequiredCheck final : public Keyword {
 public:
  RequiredCheck(KeywordInfo info, std::vector<std::string> names)
      : Keyword(std::move(info)), names_(std::move(names)) {}

  bool validate(const Json& value, Context& context) const override {
    bool ok = true;
    for (const std::string& name : names_) {
      if (value.find(name) != value.end()) continue;
      ok = false;
      if (context.fail(info(),
                       [&] { return "required property " + quoteText(name) + " is missing"; })) {
        return false;
      }
    }
    return ok;
  }

 private:
  std::vector<std::string> names_;
};

// What is allowed for members no "properties" or "patternProperties" entry
// covers: nothing said (anything, and they are not evaluated), true, false,
// or a schema.
enum class ExtraProperties { Absent, Any, None, Schema };

struct PatternProperty {
  std::shared_ptr<const re2::RE2> re;
  NodeId node;
};

class PropertiesCheck final : public Keyword {
 public:
  PropertiesCheck(KeywordInfo info, std::vector<std::pair<std::string, NodeId>> properties,
                  std::vector<PatternProperty> patterns, ExtraProperties extra, NodeId extra_schema,
                  KeywordInfo extra_info, std::string allowed)
      : Keyword(std::move(info)),
        properties_(std::move(properties)),
        patterns_(std::move(patterns)),
        extra_(extra),
        extra_schema_(extra_schema),
        extra_info_(std::move(extra_info)),
        allowed_(std::move(allowed)) {}

  bool validate(const Json& value, Context& context) const override {
    bool ok = true;
    const bool record = context.tracking();
    // Members come sorted (std::map), and so do properties_: one merge pass.
    auto property = properties_.begin();
    for (auto member = value.begin(); member != value.end(); ++member) {
      const std::string& key = member.key();
      while (property != properties_.end() && property->first < key) ++property;
      bool covered = false;
      if (property != properties_.end() && property->first == key) {
        covered = true;
        if (!check(property->second, key, member.value(), context)) {
          ok = false;
          if (context.stopped()) return false;
        }
      }
      for (const PatternProperty& pattern : patterns_) {
        if (!searchPattern(*pattern.re, key)) continue;
        covered = true;
        if (!check(pattern.node, key, member.value(), context)) {
          ok = false;
          if (context.stopped()) return false;
        }
      }
      if (record && (covered || extra_ != ExtraProperties::Absent)) {
        context.evaluated().names.push_back(&key);
      }
      if (covered || extra_ == ExtraProperties::Any || extra_ == ExtraProperties::Absent) continue;
      if (extra_ == ExtraProperties::None) {
        ok = false;
        Context::Step step(context, key);
        if (context.fail(extra_info_, [&] {
              return "property " + quoteText(key) + " is not allowed" + allowed_;
            })) {
          return false;
        }
      } else if (!check(extra_schema_, key, member.value(), context)) {
        ok = false;
        if (context.stopped()) return false;
      }
    }
    return ok;
  }

 private:
  static bool check(NodeId node, const std::string& key, const Json& value, Context& context) {
    Context::Step step(context, key);
    return context.validate(node, value);
  }

  std::vector<std::pair<std::string, NodeId>> properties_;
  std::vector<PatternProperty> patterns_;
  ExtraProperties extra_;
  NodeId extra_schema_;
  KeywordInfo extra_info_;
  std::string allowed_;
};

class PropertyNamesCheck final : public Keyword {
 public:
  PropertyNamesCheck(KeywordInfo info, NodeId node) : Keyword(std::move(info)), node_(node) {}

  bool validate(const Json& value, Context& context) const override {
    bool ok = true;
    for (auto member = value.begin(); member != value.end(); ++member) {
      const Json name(member.key());
      if (!context.collecting()) {
        if (!context.test(node_, name)) return false;
        continue;
      }
      std::optional<SchemaViolation> problem = context.first(node_, name);
      if (!problem) continue;
      ok = false;
      if (context.aborted()) return false;
      if (context.fail(info(), [&] {
            return "property name " + quoteText(member.key()) + " is invalid: " + problem->message;
          })) {
        return false;
      }
    }
    return ok;
  }

 private:
  NodeId node_;
};

void compileProperties(Scope& scope) {
  const Json* properties = scope.find("properties");
  const Json* patterns = scope.find("patternProperties");
  const Json* additional = scope.find("additionalProperties");
  if (properties == nullptr && patterns == nullptr && additional == nullptr) return;
  std::vector<std::pair<std::string, NodeId>> named;
  if (properties != nullptr) {
    for (auto it = objectValue(scope, "properties").begin(); it != properties->end(); ++it) {
      named.emplace_back(it.key(), scope.subschema("properties", it.key()));
    }
    std::sort(named.begin(), named.end());
  }
  std::vector<PatternProperty> patterned;
  std::string allowed;
  if (patterns != nullptr) {
    for (auto it = objectValue(scope, "patternProperties").begin(); it != patterns->end(); ++it) {
      patterned.push_back({scope.regex(it.key(), scope.pointerOf("patternProperties", it.key())),
                           scope.subschema("patternProperties", it.key())});
    }
  }
  ExtraProperties extra = ExtraProperties::Absent;
  NodeId extra_schema = 0;
  if (additional != nullptr) {
    if (additional->is_boolean()) {
      extra = additional->get<bool>() ? ExtraProperties::Any : ExtraProperties::None;
    } else {
      extra = ExtraProperties::Schema;
      extra_schema = scope.subschema("additionalProperties");
    }
  }
  if (extra == ExtraProperties::None) {  // name what is allowed, for the model to correct itself
    std::string names;
    std::size_t shown = 0;
    for (const auto& [name, node] : named) {
      if (shown == 12) {
        names += ", ...";
        break;
      }
      names += (shown++ == 0 ? "" : ", ") + quoteText(name, 40);
    }
    if (!names.empty()) allowed = " (allowed: " + names;
    if (patterns != nullptr && !patterns->empty()) {
      allowed += allowed.empty() ? " (allowed: " : ", ";
      allowed += "names matching patternProperties";
    }
    if (!allowed.empty()) allowed += ")";
  }
  scope.add(Applies::Object,
            std::make_unique<PropertiesCheck>(
                scope.info("properties"), std::move(named), std::move(patterned), extra,
                extra_schema, scope.info("additionalProperties"), std::move(allowed)));
}

}  // namespace

std::vector<std::string> stringArray(Scope& scope, const Json& value, const std::string& pointer,
                                     const char* what) {
  if (!value.is_array()) scope.failAt(pointer, std::string(what) + " must be an array of strings");
  std::vector<std::string> names;
  for (const Json& name : value) {
    if (!name.is_string()) {
      scope.failAt(pointer, std::string(what) + " must be an array of strings, not contain " +
                                renderValue(name));
    }
    names.push_back(name.get<std::string>());
  }
  return names;
}

const Json& objectValue(Scope& scope, const char* keyword) {
  const Json& value = *scope.find(keyword);
  if (!value.is_object()) scope.fail(keyword, "must be an object, not " + renderValue(value));
  return value;
}

void compileObjectKeywords(Scope& scope) {
  if (scope.reads(kValidation)) {
    if (const Json* required = scope.find("required")) {
      scope.add(Applies::Object,
                std::make_unique<RequiredCheck>(
                    scope.info("required"),
                    stringArray(scope, *required, scope.pointerOf("required"), "\"required\"")));
    }
    compileSizeBounds(scope, Applies::Object, "minProperties", "maxProperties");
  }
  if (scope.reads(kApplicator)) compileProperties(scope);
  compileDependencyKeywords(scope);
  if (!scope.reads(kApplicator)) return;
  if (scope.draft() != SchemaDraft::Draft4 && scope.find("propertyNames") != nullptr) {
    scope.add(Applies::Object, std::make_unique<PropertyNamesCheck>(
                                   scope.info("propertyNames"), scope.subschema("propertyNames")));
  }
}

}  // namespace toolguard::schema
