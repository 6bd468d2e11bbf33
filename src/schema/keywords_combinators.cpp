// allOf, anyOf, oneOf, not and if / then / else (draft 7 on). The subschemas
// apply to the value itself, so what the valid ones evaluate of it counts
// (for unevaluated*); "not" never passes that on.
#include <string>
#include <vector>

#include "schema/context.hpp"
#include "schema/keywords.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// "; [i] #/pointer: message" for the first problem of each failed branch, for
// people and models to see why no alternative fits.
std::string branchProblems(const std::vector<NodeId>& branches, const Json& value,
                           Context& context) {
  std::string text;
  for (std::size_t i = 0; i < branches.size() && i < 4; ++i) {
    std::optional<SchemaViolation> problem = context.first(branches[i], value);
    if (!problem || context.aborted()) continue;
    std::string line = describe(*problem);
    if (line.size() > 160) line = line.substr(0, 157) + "...";
    text += (text.empty() ? " (" : "; ") + std::string("[") + std::to_string(i) + "] " + line;
  }
  if (branches.size() > 4) text += "; ...";
  if (!text.empty()) text += ")";
  return text;
}

class AllOfCheck final : public Keyword {
 public:
  AllOfCheck(KeywordInfo info, std::vector<NodeId> branches)
      : Keyword(std::move(info)), branches_(std::move(branches)) {}

  bool validate(const Json& value, Context& context) const override {
    bool ok = true;
    for (NodeId branch : branches_) {
      if (!context.validateHere(branch, value)) {
        ok = false;
        if (context.stopped()) return false;
      }
    }
    return ok;
  }

 private:
  std::vector<NodeId> branches_;
};

class AnyOfCheck final : public Keyword {
 public:
  AnyOfCheck(KeywordInfo info, std::vector<NodeId> branches)
      : Keyword(std::move(info)), branches_(std::move(branches)) {}

  bool validate(const Json& value, Context& context) const override {
    // Every valid branch's annotations count: when they are tracked, all
    // branches are tried.
    bool any = false;
    for (NodeId branch : branches_) {
      if (context.testHere(branch, value)) {
        any = true;
        if (!context.tracking()) return true;
      }
      if (context.aborted()) return false;
    }
    if (any) return true;
    context.fail(info(), [&] {
      return "the value is valid against none of the " + std::to_string(branches_.size()) +
             " schemas" + branchProblems(branches_, value, context);
    });
    return false;
  }

 private:
  std::vector<NodeId> branches_;
};

class OneOfCheck final : public Keyword {
 public:
  OneOfCheck(KeywordInfo info, std::vector<NodeId> branches)
      : Keyword(std::move(info)), branches_(std::move(branches)) {}

  bool validate(const Json& value, Context& context) const override {
    std::vector<std::size_t> valid;
    for (std::size_t i = 0; i < branches_.size() && valid.size() < 2; ++i) {
      if (context.testHere(branches_[i], value)) valid.push_back(i);
      if (context.aborted()) return false;
    }
    if (valid.size() == 1) return true;
    context.fail(info(), [&] {
      if (valid.empty()) {
        return "the value is valid against none of the " + std::to_string(branches_.size()) +
               " schemas" + branchProblems(branches_, value, context);
      }
      return "the value is valid against more than one of the " + std::to_string(branches_.size()) +
             " schemas (" + std::to_string(valid[0]) + " and " + std::to_string(valid[1]) +
             "); it must be valid against exactly one";
    });
    return false;
  }

 private:
  std::vector<NodeId> branches_;
};

class NotCheck final : public Keyword {
 public:
  NotCheck(KeywordInfo info, NodeId node) : Keyword(std::move(info)), node_(node) {}

  bool validate(const Json& value, Context& context) const override {
    const bool matches = context.test(node_, value);
    if (context.aborted()) return false;
    if (!matches) return true;
    context.fail(info(), [&] {
      return renderValue(value) + " must not be valid against the schema in \"not\"";
    });
    return false;
  }

 private:
  NodeId node_;
};

class IfCheck final : public Keyword {
 public:
  IfCheck(KeywordInfo info, NodeId condition, std::optional<NodeId> then_node,
          std::optional<NodeId> else_node)
      : Keyword(std::move(info)), condition_(condition), then_(then_node), else_(else_node) {}

  bool validate(const Json& value, Context& context) const override {
    const bool holds = context.testHere(condition_, value);
    if (context.aborted()) return false;
    const std::optional<NodeId>& next = holds ? then_ : else_;
    return !next || context.validateHere(*next, value);
  }

 private:
  NodeId condition_;
  std::optional<NodeId> then_;
  std::optional<NodeId> else_;
};

std::vector<NodeId> branches(Scope& scope, const char* keyword) {
  const Json& value = *scope.find(keyword);
  if (!value.is_array() || value.empty()) {
    scope.fail(keyword, "must be a non-empty array of schemas");
  }
  std::vector<NodeId> nodes;
  for (std::size_t i = 0; i < value.size(); ++i) nodes.push_back(scope.subschema(keyword, i));
  return nodes;
}

}  // namespace

void compileCombinatorKeywords(Scope& scope) {
  if (!scope.reads(kApplicator)) return;
  if (scope.find("allOf") != nullptr) {
    scope.add(Applies::Combinators,
              std::make_unique<AllOfCheck>(scope.info("allOf"), branches(scope, "allOf")));
  }
  if (scope.find("anyOf") != nullptr) {
    scope.add(Applies::Combinators,
              std::make_unique<AnyOfCheck>(scope.info("anyOf"), branches(scope, "anyOf")));
  }
  if (scope.find("oneOf") != nullptr) {
    scope.add(Applies::Combinators,
              std::make_unique<OneOfCheck>(scope.info("oneOf"), branches(scope, "oneOf")));
  }
  if (scope.find("not") != nullptr) {
    scope.add(Applies::Combinators,
              std::make_unique<NotCheck>(scope.info("not"), scope.subschema("not")));
  }
  if (scope.since(SchemaDraft::Draft7) && scope.find("if") != nullptr) {
    const NodeId condition = scope.subschema("if");
    std::optional<NodeId> then_node;
    std::optional<NodeId> else_node;
    if (scope.find("then") != nullptr) then_node = scope.subschema("then");
    if (scope.find("else") != nullptr) else_node = scope.subschema("else");
    scope.add(Applies::Combinators,
              std::make_unique<IfCheck>(scope.info("if"), condition, then_node, else_node));
  }
}

}  // namespace toolguard::schema
