// minLength and maxLength (in Unicode code points) and pattern (RE2 search).
#include <re2/re2.h>

#include <string>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/regex.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

class LengthCheck final : public Keyword {
 public:
  LengthCheck(KeywordInfo info, std::size_t limit, bool is_maximum)
      : Keyword(std::move(info)), limit_(limit), is_maximum_(is_maximum) {}

  bool validate(const Json& value, Context& context) const override {
    const std::string& text = value.get_ref<const std::string&>();
    // A string has no more code points than bytes: most need no counting.
    if (is_maximum_ && text.size() <= limit_) return true;
    const std::size_t length = codePoints(text);
    if (is_maximum_ ? length <= limit_ : length >= limit_) return true;
    context.fail(info(), [&] {
      return quoteText(text) + " has " + std::to_string(length) +
             (length == 1 ? " character, " : " characters, ") +
             (is_maximum_ ? "more than the maximum of " : "fewer than the minimum of ") +
             std::to_string(limit_);
    });
    return false;
  }

 private:
  std::size_t limit_;
  bool is_maximum_;
};

class PatternCheck final : public Keyword {
 public:
  PatternCheck(KeywordInfo info, std::shared_ptr<const re2::RE2> re, std::string pattern)
      : Keyword(std::move(info)), re_(std::move(re)), pattern_(std::move(pattern)) {}

  bool validate(const Json& value, Context& context) const override {
    const std::string& text = value.get_ref<const std::string&>();
    if (searchPattern(*re_, text)) return true;
    context.fail(info(),
                 [&] { return quoteText(text) + " does not match " + quoteText(pattern_, 200); });
    return false;
  }

 private:
  std::shared_ptr<const re2::RE2> re_;
  std::string pattern_;
};

}  // namespace

void compileStringKeywords(Scope& scope) {
  if (!scope.reads(kValidation)) return;
  if (scope.find("minLength") != nullptr) {
    scope.add(Applies::String, std::make_unique<LengthCheck>(scope.info("minLength"),
                                                             scope.count("minLength"), false));
  }
  if (scope.find("maxLength") != nullptr) {
    scope.add(Applies::String, std::make_unique<LengthCheck>(scope.info("maxLength"),
                                                             scope.count("maxLength"), true));
  }
  if (const Json* pattern = scope.find("pattern")) {
    if (!pattern->is_string()) scope.fail("pattern", "must be a string");
    const std::string& text = pattern->get_ref<const std::string&>();
    scope.add(Applies::String,
              std::make_unique<PatternCheck>(scope.info("pattern"),
                                             scope.regex(text, scope.pointerOf("pattern")), text));
  }
}

}  // namespace toolguard::schema
