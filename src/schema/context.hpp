#pragma once
// One validation run: walks the compiled nodes over an instance, tracks where
// in the instance it is, and collects violations (or, when testing a branch of
// anyOf, oneOf, not, if, contains ..., only answers valid or not). When the
// schema needs them, it also tracks what each value's keywords evaluated
// (for unevaluated*) and the schema resources passed through (the dynamic
// scope of $dynamicRef and $recursiveRef).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "schema/evaluated.hpp"
#include "schema/node.hpp"

namespace toolguard::schema {

class Context {
 public:
  /// Validates against `schema`; violations go to `out` (up to `limit`), or
  /// nowhere when `out` is nullptr (a yes/no answer).
  Context(const CompiledSchema& schema, std::vector<SchemaViolation>* out, std::size_t limit);

  /// Validates `value` against node `node`, reporting in the current mode.
  /// For a value of its own (a member, an item): what `node` evaluates of
  /// it stays there.
  bool validate(NodeId node, const Json& value);

  /// Validates the current value against `node` (allOf, $ref, then ...):
  /// when it is valid, what `node` evaluated of it counts as evaluated here.
  bool validateHere(NodeId node, const Json& value);

  /// Whether `value` is valid against `node`, reporting nothing.
  bool test(NodeId node, const Json& value);

  /// test() on the current value (anyOf, oneOf, if): what a valid `node`
  /// evaluated counts as evaluated here.
  bool testHere(NodeId node, const Json& value);

  /// Whether evaluated() is kept (the schema has unevaluated* keywords).
  bool tracking() const { return track_; }

  /// What the keywords applied to the current value evaluated so far (only
  /// when tracking()).
  Evaluated& evaluated() { return frames_.back(); }

  /// Where $dynamicRef to the anchor `name` goes: the outermost resource of
  /// the dynamic scope with a "$dynamicAnchor" of that name, else `initial`.
  NodeId dynamicTarget(const std::string& name, NodeId initial) const;

  /// Where $recursiveRef goes from `initial` (the root of the current
  /// resource, which says "$recursiveAnchor": true): the outermost root of
  /// the run of enclosing resources that all say so.
  NodeId recursiveTarget(NodeId initial) const;

  /// The first violation of `value` against `node` (for messages), or nullopt.
  std::optional<SchemaViolation> first(NodeId node, const Json& value);

  /// Whether violations are being collected (messages are worth building).
  bool collecting() const { return out_ != nullptr; }

  /// Whether the caller should stop checking: not collecting, enough
  /// violations, or the depth limit was hit.
  bool stopped() const { return out_ == nullptr || out_->size() >= limit_ || aborted_; }

  /// Whether the depth limit was hit: the whole instance is then invalid.
  bool aborted() const { return aborted_; }

  /// The "depth" violation, once aborted().
  const SchemaViolation& abortViolation() const { return abort_violation_; }

  /// Records a violation of `keyword` at the current instance location; the
  /// message is `"NAME" failed: ` + detail(), built only when collecting.
  /// Returns stopped().
  template <class Detail>
  bool fail(const KeywordInfo& keyword, Detail&& detail) {
    if (out_ != nullptr && out_->size() < limit_) {
      record(keyword, "\"" + keyword.name + "\" failed: " + detail());
    }
    return stopped();
  }

  /// Records a violation whose message is exactly message() (no keyword prefix).
  template <class Message>
  bool failPlain(const KeywordInfo& keyword, Message&& message) {
    if (out_ != nullptr && out_->size() < limit_) record(keyword, message());
    return stopped();
  }

  /// Steps into an object member or array element until destroyed.
  class Step {
   public:
    Step(Context& context, const std::string& key) : context_(context) {
      context_.path_.push_back({&key, 0});
    }
    Step(Context& context, std::size_t index) : context_(context) {
      context_.path_.push_back({nullptr, index});
    }
    ~Step() { context_.path_.pop_back(); }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;

   private:
    Context& context_;
  };

  /// The current instance location as a JSON pointer.
  std::string instancePointer() const;

 private:
  struct PathToken {
    const std::string* key;  // nullptr: an array index
    std::size_t index;
  };

  void record(const KeywordInfo& keyword, std::string message);
  bool enter(NodeId id, const Json& value, bool here);
  bool validateNode(const Node& node, const Json& value);
  bool quietly(NodeId node, const Json& value, bool here);

  const CompiledSchema& schema_;
  std::vector<SchemaViolation>* out_;
  std::size_t limit_;
  std::vector<PathToken> path_;
  int depth_ = 0;
  bool aborted_ = false;
  bool track_;
  bool dynamic_;
  std::deque<Evaluated> frames_;      // one per value being validated in place
  std::vector<std::uint32_t> scope_;  // resources passed through, outermost first
  SchemaViolation abort_violation_;
};

}  // namespace toolguard::schema
