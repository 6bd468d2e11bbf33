// minItems / maxItems and minProperties / maxProperties: bounds on how many
// items an array, or properties an object, has.
#include <string>

#include "schema/context.hpp"
#include "schema/keywords.hpp"

namespace toolguard::schema {
namespace {

class SizeCheck final : public Keyword {
 public:
  SizeCheck(KeywordInfo info, std::size_t limit, bool is_maximum, bool is_array)
      : Keyword(std::move(info)), limit_(limit), is_maximum_(is_maximum), is_array_(is_array) {}

  bool validate(const Json& value, Context& context) const override {
    const std::size_t size = value.size();
    if (is_maximum_ ? size <= limit_ : size >= limit_) return true;
    context.fail(info(), [&] {
      const char* noun = is_array_ ? (size == 1 ? " item, " : " items, ")
                                   : (size == 1 ? " property, " : " properties, ");
      return std::string(is_array_ ? "the array has " : "the object has ") + std::to_string(size) +
             noun + (is_maximum_ ? "more than the maximum of " : "fewer than the minimum of ") +
             std::to_string(limit_);
    });
    return false;
  }

 private:
  std::size_t limit_;
  bool is_maximum_;
  bool is_array_;
};

}  // namespace

void compileSizeBounds(Scope& scope, Applies applies, const char* min_keyword,
                       const char* max_keyword) {
  const bool is_array = applies == Applies::Array;
  for (const char* keyword : {min_keyword, max_keyword}) {
    if (scope.find(keyword) == nullptr) continue;
    scope.add(applies, std::make_unique<SizeCheck>(scope.info(keyword), scope.count(keyword),
                                                   keyword == max_keyword, is_array));
  }
}

}  // namespace toolguard::schema
