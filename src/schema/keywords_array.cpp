// items and additionalItems (prefixItems and items in 2020-12), minItems and
// maxItems, uniqueItems, contains with minContains and maxContains.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// What is allowed past the schemas of a tuple: nothing said (anything, and
// the items are not evaluated), true, false, or a schema.
enum class ExtraItems { Absent, Any, None, Schema };

// "items" as one schema for every item (tuple empty, extra Schema), "items"
// as a tuple with "additionalItems" (drafts 4 to 2019-09), or "prefixItems"
// with "items" (2020-12).
class ItemsCheck final : public Keyword {
 public:
  ItemsCheck(KeywordInfo info, std::vector<NodeId> tuple, ExtraItems extra, NodeId extra_schema,
             KeywordInfo extra_info)
      : Keyword(std::move(info)),
        tuple_(std::move(tuple)),
        extra_(extra),
        extra_schema_(extra_schema),
        extra_info_(std::move(extra_info)) {}

  bool validate(const Json& value, Context& context) const override {
    if (context.tracking()) {  // what this keyword evaluates, valid or not
      Evaluated& seen = context.evaluated();
      seen.prefix = std::max(seen.prefix, std::min(value.size(), tuple_.size()));
      if (extra_ != ExtraItems::Absent && value.size() > tuple_.size()) seen.all = true;
    }
    bool ok = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
      NodeId node = extra_schema_;
      if (i < tuple_.size()) {
        node = tuple_[i];
      } else if (extra_ == ExtraItems::Absent || extra_ == ExtraItems::Any) {
        break;
      } else if (extra_ == ExtraItems::None) {
        Context::Step step(context, i);
        context.fail(extra_info_, [&] {
          return "item " + std::to_string(i) + " is not allowed: the array may have at most " +
                 std::to_string(tuple_.size()) + (tuple_.size() == 1 ? " item" : " items");
        });
        return false;
      }
      Context::Step step(context, i);
      if (!context.validate(node, value[i])) {
        ok = false;
        if (context.stopped()) return false;
      }
    }
    return ok;
  }

 private:
  std::vector<NodeId> tuple_;
  ExtraItems extra_;
  NodeId extra_schema_;
  KeywordInfo extra_info_;
};

class UniqueItemsCheck final : public Keyword {
 public:
  explicit UniqueItemsCheck(KeywordInfo info) : Keyword(std::move(info)) {}

  bool validate(const Json& value, Context& context) const override {
    auto duplicate = findDuplicate(value);
    if (!duplicate) return true;
    context.fail(info(), [&] {
      return "items " + std::to_string(duplicate->first) + " and " +
             std::to_string(duplicate->second) + " are equal (" +
             renderValue(value[duplicate->first], 40) + ")";
    });
    return false;
  }

 private:
  static std::optional<std::pair<std::size_t, std::size_t>> findDuplicate(const Json& value) {
    const std::size_t n = value.size();
    if (n <= 8) {
      for (std::size_t j = 1; j < n; ++j) {
        for (std::size_t i = 0; i < j; ++i) {
          if (jsonEqual(value[i], value[j])) return std::pair{i, j};
        }
      }
      return std::nullopt;
    }
    std::vector<std::pair<std::size_t, std::size_t>> hashed(n);  // hash, index
    for (std::size_t i = 0; i < n; ++i) hashed[i] = {jsonHash(value[i]), i};
    std::sort(hashed.begin(), hashed.end());
    std::optional<std::pair<std::size_t, std::size_t>> best;
    for (std::size_t start = 0; start < n;) {
      std::size_t end = start + 1;
      while (end < n && hashed[end].first == hashed[start].first) ++end;
      for (std::size_t b = start + 1; b < end; ++b) {
        for (std::size_t a = start; a < b; ++a) {
          if (jsonEqual(value[hashed[a].second], value[hashed[b].second])) {
            std::pair found{hashed[a].second, hashed[b].second};
            if (!best || found.second < best->second) best = found;
          }
        }
      }
      start = end;
    }
    return best;
  }
};

// contains, with minContains and maxContains (2019-09 on); from 2020-12 the
// matching items count as evaluated.
class ContainsCheck final : public Keyword {
 public:
  struct Bounds {
    std::size_t min = 1;
    std::optional<std::size_t> max;
    KeywordInfo min_info;  // "contains" itself when there is no minContains
    KeywordInfo max_info;
  };

  ContainsCheck(KeywordInfo info, NodeId node, Bounds bounds, bool annotates)
      : Keyword(std::move(info)), node_(node), bounds_(std::move(bounds)), annotates_(annotates) {}

  bool validate(const Json& value, Context& context) const override {
    const bool record = annotates_ && context.tracking();
    // Every item has to be looked at when matches are counted up to a
    // maximum or recorded; else the first `min` matches settle it.
    const bool count_all = record || bounds_.max.has_value();
    std::size_t matches = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!count_all && matches >= bounds_.min) return true;
      Context::Step step(context, i);
      if (context.test(node_, value[i])) {
        ++matches;
        if (record) context.evaluated().indices.push_back(i);
      }
      if (context.aborted()) return false;
    }
    if (matches < bounds_.min) {
      context.fail(bounds_.min_info, [&] {
        if (value.empty()) return std::string("the array is empty; it must contain a valid item");
        if (bounds_.min == 1) {
          return "none of the " + std::to_string(value.size()) +
                 " items is valid against the \"contains\" schema";
        }
        return std::to_string(matches) + " of the items " + (matches == 1 ? "is" : "are") +
               " valid against the \"contains\" schema, " + "fewer than the minimum of " +
               std::to_string(bounds_.min);
      });
      return false;
    }
    if (bounds_.max && matches > *bounds_.max) {
      context.fail(bounds_.max_info, [&] {
        return std::to_string(matches) + " of the items are valid against the \"contains\" " +
               "schema, more than the maximum of " + std::to_string(*bounds_.max);
      });
      return false;
    }
    return true;
  }

 private:
  NodeId node_;
  Bounds bounds_;
  bool annotates_;
};

ExtraItems extraOf(Scope& scope, const char* keyword, NodeId& schema) {
  const Json* value = scope.find(keyword);
  if (value == nullptr) return ExtraItems::Absent;
  if (value->is_boolean()) return value->get<bool>() ? ExtraItems::Any : ExtraItems::None;
  schema = scope.subschema(keyword);
  return ExtraItems::Schema;
}

std::vector<NodeId> tupleOf(Scope& scope, const char* keyword) {
  const Json& items = *scope.find(keyword);
  std::vector<NodeId> tuple;
  for (std::size_t i = 0; i < items.size(); ++i) tuple.push_back(scope.subschema(keyword, i));
  return tuple;
}

// Drafts 4 to 2019-09: "items" is one schema or a tuple; "additionalItems"
// goes past the tuple.
void compileItems(Scope& scope, const Json& items) {
  if (!items.is_array()) {
    scope.add(Applies::Array, std::make_unique<ItemsCheck>(
                                  scope.info("items"), std::vector<NodeId>{}, ExtraItems::Schema,
                                  scope.subschema("items"), scope.info("items")));
    return;
  }
  std::vector<NodeId> tuple = tupleOf(scope, "items");
  NodeId extra_schema = 0;
  const ExtraItems extra = extraOf(scope, "additionalItems", extra_schema);
  scope.add(Applies::Array,
            std::make_unique<ItemsCheck>(scope.info("items"), std::move(tuple), extra, extra_schema,
                                         scope.info("additionalItems")));
}

// 2020-12: "prefixItems" is the tuple, "items" one schema for the items past it.
void compilePrefixItems(Scope& scope) {
  const Json* prefix = scope.find("prefixItems");
  const Json* items = scope.find("items");
  if (prefix == nullptr && items == nullptr) return;
  if (prefix != nullptr && (!prefix->is_array() || prefix->empty())) {
    scope.fail("prefixItems", "must be a non-empty array of schemas");
  }
  if (items != nullptr && items->is_array()) {
    scope.fail("items",
               "must be a schema in draft 2020-12 (one schema for every item past "
               "\"prefixItems\"); a tuple of schemas is \"prefixItems\", or say "
               "\"$schema\": \"http://json-schema.org/draft-07/schema#\" for a draft-7 schema");
  }
  std::vector<NodeId> tuple;
  if (prefix != nullptr) tuple = tupleOf(scope, "prefixItems");
  NodeId extra_schema = 0;
  const ExtraItems extra = extraOf(scope, "items", extra_schema);
  scope.add(Applies::Array, std::make_unique<ItemsCheck>(
                                scope.info(prefix != nullptr ? "prefixItems" : "items"),
                                std::move(tuple), extra, extra_schema, scope.info("items")));
}

void compileContains(Scope& scope) {
  ContainsCheck::Bounds bounds{1, std::nullopt, scope.info("contains"), {}};
  if (scope.since(SchemaDraft::Draft2019_09) && scope.reads(kValidation)) {
    if (scope.find("minContains") != nullptr) {
      bounds.min = scope.count("minContains");
      bounds.min_info = scope.info("minContains");
    }
    if (scope.find("maxContains") != nullptr) {
      bounds.max = scope.count("maxContains");
      bounds.max_info = scope.info("maxContains");
    }
  }
  const bool annotates = scope.since(SchemaDraft::Draft2020_12);
  scope.add(Applies::Array,
            std::make_unique<ContainsCheck>(scope.info("contains"), scope.subschema("contains"),
                                            std::move(bounds), annotates));
}

}  // namespace

void compileArrayKeywords(Scope& scope) {
  if (scope.reads(kValidation)) {
    compileSizeBounds(scope, Applies::Array, "minItems", "maxItems");
    if (const Json* unique = scope.find("uniqueItems")) {
      if (!unique->is_boolean()) scope.fail("uniqueItems", "must be a boolean");
      if (unique->get<bool>()) {
        scope.add(Applies::Array, std::make_unique<UniqueItemsCheck>(scope.info("uniqueItems")));
      }
    }
  }
  if (!scope.reads(kApplicator)) return;
  if (scope.since(SchemaDraft::Draft2020_12)) {
    compilePrefixItems(scope);
  } else if (const Json* items = scope.find("items")) {
    compileItems(scope, *items);
  }
  if (scope.draft() != SchemaDraft::Draft4 && scope.find("contains") != nullptr) {
    compileContains(scope);
  }
}

}  // namespace toolguard::schema
