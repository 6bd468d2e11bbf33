// type, enum and const: checks that apply to every instance.
#include <string>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kObject = 4,
  kArray = 8,
  kNumber = 16,
  kString = 32,
  kInteger = 64,
};

constexpr std::pair<const char*, unsigned> kTypeNames[] = {
    {"array", kArray},   {"boolean", kBoolean}, {"integer", kInteger}, {"null", kNull},
    {"number", kNumber}, {"object", kObject},   {"string", kString}};

class TypeCheck final : public Keyword {
 public:
  TypeCheck(KeywordInfo info, unsigned mask, std::string names, SchemaDraft draft)
      : Keyword(std::move(info)), mask_(mask), names_(std::move(names)), draft_(draft) {}

  bool validate(const Json& value, Context& context) const override {
    if (matches(value)) return true;
    context.fail(info(), [&] { return renderValue(value) + " is not of type " + names_; });
    return false;
  }

 private:
  bool matches(const Json& value) const {
    switch (value.type()) {
      case Json::value_t::null:
        return (mask_ & kNull) != 0;
      case Json::value_t::boolean:
        return (mask_ & kBoolean) != 0;
      case Json::value_t::object:
        return (mask_ & kObject) != 0;
      case Json::value_t::array:
        return (mask_ & kArray) != 0;
      case Json::value_t::string:
        return (mask_ & kString) != 0;
      case Json::value_t::number_integer:
      case Json::value_t::number_unsigned:
      case Json::value_t::number_float:
        return (mask_ & kNumber) != 0 || ((mask_ & kInteger) != 0 && isInteger(value, draft_));
      default:
        return false;
    }
  }

  unsigned mask_;
  std::string names_;
  SchemaDraft draft_;
};

class EnumCheck final : public Keyword {
 public:
  EnumCheck(KeywordInfo info, std::vector<Json> values, std::string rendered)
      : Keyword(std::move(info)), values_(std::move(values)), rendered_(std::move(rendered)) {}

  bool validate(const Json& value, Context& context) const override {
    for (const Json& candidate : values_) {
      if (jsonEqual(candidate, value)) return true;
    }
    context.fail(info(), [&] { return renderValue(value) + " is not one of " + rendered_; });
    return false;
  }

 private:
  std::vector<Json> values_;
  std::string rendered_;
};

class ConstCheck final : public Keyword {
 public:
  ConstCheck(KeywordInfo info, Json expected)
      : Keyword(std::move(info)), expected_(std::move(expected)) {}

  bool validate(const Json& value, Context& context) const override {
    if (jsonEqual(expected_, value)) return true;
    context.fail(info(), [&] {
      return "must be " + renderValue(expected_) + ", not " + renderValue(value);
    });
    return false;
  }

 private:
  Json expected_;
};

unsigned typeBit(const Json& name) {
  if (!name.is_string()) return 0;
  for (const auto& [text, bit] : kTypeNames) {
    if (name.get_ref<const std::string&>() == text) return bit;
  }
  return 0;
}

void compileType(Scope& scope, const Json& value) {
  const char* expected =
      "must be one of \"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\", "
      "\"string\", or a non-empty array of them";
  std::vector<Json> names = value.is_array() ? value.get<std::vector<Json>>() : std::vector{value};
  if (names.empty()) scope.fail("type", expected);
  unsigned mask = 0;
  std::string rendered;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const unsigned bit = typeBit(names[i]);
    if (bit == 0) {
      scope.fail("type", std::string(expected) + "; " + renderValue(names[i]) + " is not");
    }
    mask |= bit;
    if (i > 0) rendered += i + 1 == names.size() ? " or " : ", ";
    rendered += quoteText(names[i].get<std::string>());
  }
  scope.add(Applies::Any, std::make_unique<TypeCheck>(scope.info("type"), mask, std::move(rendered),
                                                      scope.draft()));
}

}  // namespace

void compileGeneralKeywords(Scope& scope) {
  if (!scope.reads(kValidation)) return;
  if (const Json* type = scope.find("type")) compileType(scope, *type);
  if (const Json* values = scope.find("enum")) {
    if (!values->is_array()) scope.fail("enum", "must be an array");
    scope.add(Applies::Any,
              std::make_unique<EnumCheck>(scope.info("enum"), values->get<std::vector<Json>>(),
                                          renderValue(*values, 160)));
  }
  if (scope.draft() != SchemaDraft::Draft4) {
    if (const Json* expected = scope.find("const")) {
      scope.add(Applies::Any, std::make_unique<ConstCheck>(scope.info("const"), *expected));
    }
  }
}

}  // namespace toolguard::schema
