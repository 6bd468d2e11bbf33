// unevaluatedProperties and unevaluatedItems (2019-09 on): they apply to the
// members and items no other keyword evaluated, counting what the valid
// subschemas applied to the same value (allOf, anyOf, oneOf, if / then /
// else, dependentSchemas, $ref ...) evaluated. They run last, when all of
// that is known.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

class UnevaluatedPropertiesCheck final : public Keyword {
 public:
  UnevaluatedPropertiesCheck(KeywordInfo info, NodeId node, bool forbidden)
      : Keyword(std::move(info)), node_(node), forbidden_(forbidden) {}

  bool validate(const Json& value, Context& context) const override {
    if (!value.is_object() || context.evaluated().all) return true;
    const std::vector<std::string_view> seen = context.evaluated().sortedNames();
    bool ok = true;
    for (auto member = value.begin(); member != value.end(); ++member) {
      const std::string& key = member.key();
      if (std::binary_search(seen.begin(), seen.end(), std::string_view(key))) continue;
      Context::Step step(context, key);
      if (forbidden_) {
        ok = false;
        if (context.fail(info(), [&] {
              return "property " + quoteText(key) +
                     " is not allowed: no other keyword of the schema accepts it";
            })) {
          return false;
        }
      } else if (!context.validate(node_, member.value())) {
        ok = false;
        if (context.stopped()) return false;
      }
    }
    context.evaluated().all = true;
    return ok;
  }

 private:
  NodeId node_;
  bool forbidden_;
};

class UnevaluatedItemsCheck final : public Keyword {
 public:
  UnevaluatedItemsCheck(KeywordInfo info, NodeId node, bool forbidden)
      : Keyword(std::move(info)), node_(node), forbidden_(forbidden) {}

  bool validate(const Json& value, Context& context) const override {
    if (!value.is_array() || context.evaluated().all) return true;
    const std::size_t prefix = context.evaluated().prefix;
    const std::vector<std::size_t> seen = context.evaluated().sortedIndices();
    bool ok = true;
    for (std::size_t i = prefix; i < value.size(); ++i) {
      if (std::binary_search(seen.begin(), seen.end(), i)) continue;
      Context::Step step(context, i);
      if (forbidden_) {
        ok = false;
        if (context.fail(info(), [&] {
              return "item " + std::to_string(i) +
                     " is not allowed: no other keyword of the schema accepts it";
            })) {
          return false;
        }
      } else if (!context.validate(node_, value[i])) {
        ok = false;
        if (context.stopped()) return false;
      }
    }
    context.evaluated().all = true;
    return ok;
  }

 private:
  NodeId node_;
  bool forbidden_;
};

}  // namespace

void compileUnevaluatedKeywords(Scope& scope) {
  if (!scope.since(SchemaDraft::Draft2019_09) || !scope.reads(kUnevaluated)) return;
  if (const Json* schema = scope.find("unevaluatedProperties")) {
    scope.needAnnotations();
    const bool forbidden = schema->is_boolean() && !schema->get<bool>();
    scope.add(Applies::Unevaluated, std::make_unique<UnevaluatedPropertiesCheck>(
                                        scope.info("unevaluatedProperties"),
                                        scope.subschema("unevaluatedProperties"), forbidden));
  }
  if (const Json* schema = scope.find("unevaluatedItems")) {
    scope.needAnnotations();
    const bool forbidden = schema->is_boolean() && !schema->get<bool>();
    scope.add(Applies::Unevaluated,
              std::make_unique<UnevaluatedItemsCheck>(
                  scope.info("unevaluatedItems"), scope.subschema("unevaluatedItems"), forbidden));
  }
}

}  // namespace toolguard::schema
