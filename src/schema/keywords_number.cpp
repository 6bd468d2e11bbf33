// minimum, maximum, exclusiveMinimum, exclusiveMaximum (boolean modifiers in
// draft 4, numbers of their own in drafts 6 and 7) and multipleOf.
#include <cmath>
#include <string>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

class BoundCheck final : public Keyword {
 public:
  BoundCheck(KeywordInfo info, Json limit, bool is_maximum, bool exclusive)
      : Keyword(std::move(info)),
        limit_(std::move(limit)),
        is_maximum_(is_maximum),
        exclusive_(exclusive) {}

  bool validate(const Json& value, Context& context) const override {
    const int order = compareNumbers(value, limit_);
    // A NaN (only possible in a value built in code) is never within bounds.
    const bool finite = !value.is_number_float() || !std::isnan(value.get<double>());
    const bool ok = finite && (is_maximum_ ? (exclusive_ ? order < 0 : order <= 0)
                                           : (exclusive_ ? order > 0 : order >= 0));
    if (ok) return true;
    context.fail(info(), [&] {
      std::string text = value.dump();
      if (is_maximum_) {
        text += exclusive_ ? " is not less than the exclusive maximum of "
                           : " is greater than the maximum of ";
      } else {
        text += exclusive_ ? " is not greater than the exclusive minimum of "
                           : " is less than the minimum of ";
      }
      return text + limit_.dump();
    });
    return false;
  }

 private:
  Json limit_;
  bool is_maximum_;
  bool exclusive_;
};

class MultipleOfCheck final : public Keyword {
 public:
  MultipleOfCheck(KeywordInfo info, Json divisor, Decimal decimal)
      : Keyword(std::move(info)), divisor_(std::move(divisor)), decimal_(decimal) {}

  bool validate(const Json& value, Context& context) const override {
    std::optional<Decimal> decimal = decimalOf(value);
    if (decimal && isMultipleOf(*decimal, decimal_)) return true;
    context.fail(info(), [&] { return value.dump() + " is not a multiple of " + divisor_.dump(); });
    return false;
  }

 private:
  Json divisor_;
  Decimal decimal_;
};

const Json& number(Scope& scope, std::string_view keyword) {
  const Json& value = *scope.find(keyword);
  if (!value.is_number() || (value.is_number_float() && !std::isfinite(value.get<double>()))) {
    scope.fail(keyword, "must be a number, not " + renderValue(value));
  }
  return value;
}

// Draft 4: "exclusiveMaximum": true turns "maximum" exclusive.
void compileDraft4Bound(Scope& scope, const char* keyword, const char* exclusive_keyword,
                        bool is_maximum) {
  bool exclusive = false;
  if (const Json* flag = scope.find(exclusive_keyword)) {
    if (!flag->is_boolean()) {
      scope.fail(exclusive_keyword, "must be a boolean in draft 4, not " + renderValue(*flag));
    }
    if (scope.find(keyword) == nullptr) {
      scope.fail(exclusive_keyword, std::string("needs \"") + keyword + "\" next to it");
    }
    exclusive = flag->get<bool>();
  }
  if (scope.find(keyword) == nullptr) return;
  scope.add(Applies::Number,
            std::make_unique<BoundCheck>(scope.info(keyword), number(scope, keyword), is_maximum,
                                         exclusive));
}

void compileBound(Scope& scope, const char* keyword, bool is_maximum, bool exclusive) {
  if (scope.find(keyword) == nullptr) return;
  scope.add(Applies::Number,
            std::make_unique<BoundCheck>(scope.info(keyword), number(scope, keyword), is_maximum,
                                         exclusive));
}

}  // namespace

void compileNumberKeywords(Scope& scope) {
  if (!scope.reads(kValidation)) return;
  if (scope.draft() == SchemaDraft::Draft4) {
    compileDraft4Bound(scope, "minimum", "exclusiveMinimum", false);
    compileDraft4Bound(scope, "maximum", "exclusiveMaximum", true);
  } else {
    compileBound(scope, "minimum", false, false);
    compileBound(scope, "exclusiveMinimum", false, true);
    compileBound(scope, "maximum", true, false);
    compileBound(scope, "exclusiveMaximum", true, true);
  }
  if (scope.find("multipleOf") != nullptr) {
    const Json& divisor = number(scope, "multipleOf");
    std::optional<Decimal> decimal = decimalOf(divisor);
    if (!decimal || decimal->digits == 0 || compareNumbers(divisor, Json(0)) <= 0) {
      scope.fail("multipleOf", "must be a number greater than 0, not " + divisor.dump());
    }
    scope.add(Applies::Number,
              std::make_unique<MultipleOfCheck>(scope.info("multipleOf"), divisor, *decimal));
  }
}

}  // namespace toolguard::schema
