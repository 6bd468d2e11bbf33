// $ref from 2019-09 on (a keyword beside the others: it no longer makes them
// void), $dynamicRef (2020-12) and $recursiveRef (2019-09). All three apply
// their target to the value itself, so what it evaluates counts here.
// Drafts 4-7 read $ref in the compiler: there it replaces the whole schema.
#include <string>

#include "schema/context.hpp"
#include "schema/keywords.hpp"

namespace toolguard::schema {
namespace {

class RefCheck final : public Keyword {
 public:
  RefCheck(KeywordInfo info, NodeId target) : Keyword(std::move(info)), target_(target) {}

  bool validate(const Json& value, Context& context) const override {
    return context.validateHere(target_, value);
  }

 private:
  NodeId target_;
};

// $dynamicRef to a "$dynamicAnchor": the outermost resource in the dynamic
// scope with an anchor of that name decides where it goes.
class DynamicRefCheck final : public Keyword {
 public:
  DynamicRefCheck(KeywordInfo info, NodeId initial, std::string anchor)
      : Keyword(std::move(info)), initial_(initial), anchor_(std::move(anchor)) {}

  bool validate(const Json& value, Context& context) const override {
    return context.validateHere(context.dynamicTarget(anchor_, initial_), value);
  }

 private:
  NodeId initial_;
  std::string anchor_;
};

// $recursiveRef to a resource root that says "$recursiveAnchor": true.
class RecursiveRefCheck final : public Keyword {
 public:
  RecursiveRefCheck(KeywordInfo info, NodeId initial)
      : Keyword(std::move(info)), initial_(initial) {}

  bool validate(const Json& value, Context& context) const override {
    return context.validateHere(context.recursiveTarget(initial_), value);
  }

 private:
  NodeId initial_;
};

}  // namespace

void compileReferenceKeywords(Scope& scope) {
  if (!scope.since(SchemaDraft::Draft2019_09)) return;
  if (scope.find("$ref") != nullptr) {
    scope.add(Applies::Combinators,
              std::make_unique<RefCheck>(scope.info("$ref"), scope.reference("$ref")));
  }
  if (scope.draft() == SchemaDraft::Draft2020_12 && scope.find("$dynamicRef") != nullptr) {
    const NodeId initial = scope.reference("$dynamicRef");
    std::string anchor = scope.dynamicAnchorOf("$dynamicRef");
    if (anchor.empty()) {  // not to a dynamic anchor: a plain $ref
      scope.add(Applies::Combinators,
                std::make_unique<RefCheck>(scope.info("$dynamicRef"), initial));
    } else {
      scope.needDynamicScope();
      scope.add(Applies::Combinators, std::make_unique<DynamicRefCheck>(
                                          scope.info("$dynamicRef"), initial, std::move(anchor)));
    }
  }
  if (scope.draft() == SchemaDraft::Draft2019_09 && scope.find("$recursiveRef") != nullptr) {
    const NodeId initial = scope.reference("$recursiveRef");
    if (scope.recursiveAnchorAt("$recursiveRef")) {
      scope.needDynamicScope();
      scope.add(Applies::Combinators,
                std::make_unique<RecursiveRefCheck>(scope.info("$recursiveRef"), initial));
    } else {
      scope.add(Applies::Combinators,
                std::make_unique<RefCheck>(scope.info("$recursiveRef"), initial));
    }
  }
}

}  // namespace toolguard::schema
