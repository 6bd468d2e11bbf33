// items and additionalItems, minItems and maxItems, uniqueItems, contains.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// What is allowed past the schemas of a tuple ("items" as an array).
enum class Extra { Any, None, Schema };

class ItemsCheck final : public Keyword {
 public:
  // "items" as one schema for every item.
  ItemsCheck(KeywordInfo info, NodeId all)
      : Keyword(std::move(info)), all_(all), is_tuple_(false) {}
  // "items" as an array, and "additionalItems".
  ItemsCheck(KeywordInfo info, std::vector<NodeId> tuple, Extra extra, NodeId extra_schema,
             KeywordInfo extra_info)
      : Keyword(std::move(info)),
        tuple_(std::move(tuple)),
        is_tuple_(true),
        extra_(extra),
        extra_schema_(extra_schema),
        extra_info_(std::move(extra_info)) {}

  bool validate(const Json& value, Context& context) const override {
    bool ok = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
      NodeId node = all_;
      if (is_tuple_ && i >= tuple_.size()) {
        if (extra_ == Extra::Any) break;
        if (extra_ == Extra::None) {
          Context::Step step(context, i);
          context.fail(extra_info_, [&] {
            return "item " + std::to_string(i) + " is not allowed: the array may have at most " +
                   std::to_string(tuple_.size()) + (tuple_.size() == 1 ? " item" : " items");
          });
          return false;
        }
        node = extra_schema_;
      } else if (is_tuple_) {
        node = tuple_[i];
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
  NodeId all_ = 0;
  std::vector<NodeId> tuple_;
  bool is_tuple_;
  Extra extra_ = Extra::Any;
  NodeId extra_schema_ = 0;
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

class ContainsCheck final : public Keyword {
 public:
  ContainsCheck(KeywordInfo info, NodeId node) : Keyword(std::move(info)), node_(node) {}

  bool validate(const Json& value, Context& context) const override {
    for (std::size_t i = 0; i < value.size(); ++i) {
      Context::Step step(context, i);
      if (context.test(node_, value[i])) return true;
      if (context.aborted()) return false;
    }
    context.fail(info(), [&] {
      if (value.empty()) return std::string("the array is empty; it must contain a valid item");
      return "none of the " + std::to_string(value.size()) +
             " items is valid against the \"contains\" schema";
    });
    return false;
  }

 private:
  NodeId node_;
};

void compileItems(Scope& scope, const Json& items) {
  if (!items.is_array()) {
    scope.add(Applies::Array,
              std::make_unique<ItemsCheck>(scope.info("items"), scope.subschema("items")));
    return;
  }
  std::vector<NodeId> tuple;
  for (std::size_t i = 0; i < items.size(); ++i) tuple.push_back(scope.subschema("items", i));
  Extra extra = Extra::Any;
  NodeId extra_schema = 0;
  if (const Json* additional = scope.find("additionalItems")) {
    if (additional->is_boolean()) {
      extra = additional->get<bool>() ? Extra::Any : Extra::None;
    } else {
      extra = Extra::Schema;
      extra_schema = scope.subschema("additionalItems");
    }
  }
  scope.add(Applies::Array,
            std::make_unique<ItemsCheck>(scope.info("items"), std::move(tuple), extra, extra_schema,
                                         scope.info("additionalItems")));
}

}  // namespace

void compileArrayKeywords(Scope& scope) {
  compileSizeBounds(scope, Applies::Array, "minItems", "maxItems");
  if (const Json* unique = scope.find("uniqueItems")) {
    if (!unique->is_boolean()) scope.fail("uniqueItems", "must be a boolean");
    if (unique->get<bool>()) {
      scope.add(Applies::Array, std::make_unique<UniqueItemsCheck>(scope.info("uniqueItems")));
    }
  }
  if (const Json* items = scope.find("items")) compileItems(scope, *items);
  if (scope.draft() != SchemaDraft::Draft4 && scope.find("contains") != nullptr) {
    scope.add(Applies::Array,
              std::make_unique<ContainsCheck>(scope.info("contains"), scope.subschema("contains")));
  }
}

}  // namespace toolguard::schema
