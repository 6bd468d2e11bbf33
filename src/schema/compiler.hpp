#pragma once
// Compiles a schema document into a CompiledSchema: one node per schema
// object reached, $refs resolved to nodes (each place compiled once, so
// recursive schemas are cycles, not infinite work), keyword values checked.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schema/documents.hpp"
#include "schema/node.hpp"

namespace re2 {
class RE2;
}

namespace toolguard::schema {

class Compiler;

/// What the keyword compilers see of the schema object being compiled, and
/// how they add checks, compile subschemas and report bad keyword values.
class Scope {
 public:
  /// The schema object.
  const Json& schema() const { return schema_; }
  /// The draft it is read as.
  SchemaDraft draft() const { return draft_; }
  /// Whether the draft is `since` or later.
  bool since(SchemaDraft since) const { return atLeast(draft_, since); }
  /// Whether its dialect reads the keywords of `vocabulary` (always, before 2019-09).
  bool reads(Vocabulary vocabulary) const { return (vocabularies_ & vocabulary) != 0; }
  /// The value of `keyword`, or nullptr when absent.
  const Json* find(std::string_view keyword) const;

  /// Where `keyword` (and a member or index inside it) is, as violations name it.
  std::string pointerOf(std::string_view keyword) const;
  std::string pointerOf(std::string_view keyword, std::string_view member) const;
  std::string pointerOf(std::string_view keyword, std::size_t index) const;
  /// Name and pointer of `keyword`.
  KeywordInfo info(std::string_view keyword) const;

  /// Compiles the subschema that is the value of `keyword` (or its member / element).
  NodeId subschema(std::string_view keyword);
  NodeId subschema(std::string_view keyword, std::string_view member);
  NodeId subschema(std::string_view keyword, std::size_t index);

  /// Adds a check, run for the instances `applies` names.
  void add(Applies applies, std::unique_ptr<Keyword> check);

  /// The node the reference (a URI reference string) in `keyword` points at
  /// (SchemaError when it is not a string or points nowhere).
  NodeId reference(std::string_view keyword);
  /// The name of the "$dynamicAnchor" the reference in `keyword` points at,
  /// or "" when it points at anything else (2020-12's $dynamicRef then
  /// works as $ref does).
  std::string dynamicAnchorOf(std::string_view keyword) const;
  /// Whether the resource the reference in `keyword` points into says
  /// "$recursiveAnchor": true at its root (2019-09's $recursiveRef).
  bool recursiveAnchorAt(std::string_view keyword) const;

  /// Validation must record what keywords evaluated (unevaluated* is used).
  void needAnnotations();
  /// Validation must track the resources it passes through ($dynamicRef, $recursiveRef).
  void needDynamicScope();

  /// Throws a SchemaError at `keyword`.
  [[noreturn]] void fail(std::string_view keyword, const std::string& message) const;
  /// Throws a SchemaError at a pointer from pointerOf().
  [[noreturn]] void failAt(const std::string& pointer, const std::string& message) const;

  /// A compiled `pattern` found at `pointer` (SchemaError when RE2 rejects it).
  std::shared_ptr<const re2::RE2> regex(const std::string& pattern,
                                        const std::string& pointer) const;

  /// A non-negative integer value of `keyword` (SchemaError otherwise).
  std::size_t count(std::string_view keyword) const;

 private:
  friend class Compiler;
  Scope(Compiler& compiler, const Json& schema, Location location, std::string display,
        std::string base, SchemaDraft draft, unsigned vocabularies, int depth);
  std::string referenceText(std::string_view keyword) const;
  NodeId child(const Json& value, std::string raw_pointer);

  Compiler& compiler_;
  const Json& schema_;
  Location location_;
  std::string display_;
  std::string base_;
  SchemaDraft draft_;
  unsigned vocabularies_;
  int depth_;
  Node checks_;
};

/// Builds a CompiledSchema; one use.
class Compiler {
 public:
  Compiler(const Json& root, const SchemaOptions& options);

  /// Compiles everything reachable from the root. Throws SchemaError.
  std::shared_ptr<const CompiledSchema> run();

 private:
  friend class Scope;
  NodeId reserve(const Location& location);
  NodeId compileAt(const Location& location, const Json& value, const std::string& base, int depth);
  void compileInto(NodeId id, const Location& location, const Json& value, const std::string& base,
                   int depth);
  void compilePending();
  void addAnchors(std::uint32_t resource);
  std::uint32_t resourceOf(const std::string& base);
  void resolveRefChains();

  std::shared_ptr<CompiledSchema> out_;
  std::map<std::string, std::uint32_t, std::less<>> resource_ids_;
  Documents documents_;
  std::map<std::pair<std::size_t, std::string>, NodeId> by_location_;
  std::vector<std::pair<NodeId, Location>> pending_;
};

/// The dialect `schema` is read in under `options`.
Dialect dialectFor(const Json& schema, const SchemaOptions& options);

}  // namespace toolguard::schema
