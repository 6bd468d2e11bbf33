#pragma once
// The compiled form of a schema: a flat table of nodes, one per schema object,
// each holding the checks of its keywords, split by the instance type they
// apply to. Subschemas and resolved $refs are node indices, so recursive
// schemas are plain cycles in the table.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "schema/json_values.hpp"
#include "toolguard/json_schema.hpp"

namespace toolguard::schema {

class Context;

/// Index of a node in CompiledSchema::nodes.
using NodeId = std::uint32_t;

/// A keyword as violations name it: its name and where it is in the schema.
struct KeywordInfo {
  std::string name;
  std::string pointer;
};

/// The compiled check of one keyword (or of keywords that work together, such
/// as properties, patternProperties and additionalProperties).
class Keyword {
 public:
  explicit Keyword(KeywordInfo info) : info_(std::move(info)) {}
  virtual ~Keyword() = default;
  Keyword(const Keyword&) = delete;
  Keyword& operator=(const Keyword&) = delete;

  /// Checks `value`; false when it is invalid. Violations go through `context`.
  virtual bool validate(const Json& value, Context& context) const = 0;

  /// The keyword's name and schema pointer.
  const KeywordInfo& info() const { return info_; }

 private:
  KeywordInfo info_;
};

/// Which instances a keyword looks at, which is also when it runs: Any
/// first (type, enum, const), then the checks of the instance's type, then
/// Combinators ($ref of 2019-09 on, allOf, anyOf, oneOf, not, if), and
/// Unevaluated (unevaluatedItems, unevaluatedProperties) last, when every
/// other keyword has said what it evaluated.
enum class Applies { Any, Number, String, Array, Object, Combinators, Unevaluated };

/// One compiled schema object (or boolean schema).
struct Node {
  enum class Kind : std::uint8_t {
    Pending,   // reserved, not compiled yet (never seen after compiling)
    Keywords,  // the checks below
    False,     // the schema false: nothing is valid
    Ref,       // a $ref: validation goes to `target`
  };
  Kind kind = Kind::Pending;
  NodeId target = 0;
  /// The schema resource the node is in (index in CompiledSchema::resources).
  std::uint32_t resource = 0;
  /// Where the schema is, for violations: a JSON pointer, or "URI#pointer".
  std::string pointer;
  std::vector<std::unique_ptr<Keyword>> any, number, string, array, object, combinators,
      unevaluated;

  /// The check list for `applies`.
  std::vector<std::unique_ptr<Keyword>>& list(Applies applies) {
    switch (applies) {
      case Applies::Number:
        return number;
      case Applies::String:
        return string;
      case Applies::Array:
        return array;
      case Applies::Object:
        return object;
      case Applies::Combinators:
        return combinators;
      case Applies::Unevaluated:
        return unevaluated;
      case Applies::Any:
        break;
    }
    return any;
  }
};

/// A schema resource (a document, or a subschema with an "$id" of its own)
/// and what $dynamicRef and $recursiveRef may jump to in it.
struct Resource {
  std::string uri;
  /// "$dynamicAnchor" name -> node (2020-12).
  std::map<std::string, NodeId, std::less<>> dynamic_anchors;
  /// The resource's root, when it says "$recursiveAnchor": true (2019-09).
  std::optional<NodeId> recursive_root;
};

/// Everything a JsonSchema shares between its copies.
struct CompiledSchema {
  std::vector<Node> nodes;
  std::vector<Resource> resources;
  NodeId root = 0;
  SchemaDraft draft = SchemaDraft::Draft7;
  std::size_t max_violations = 16;
  /// Some keyword needs to know what others evaluated (unevaluated*), so
  /// validation records it.
  bool annotations = false;
  /// Some keyword depends on the resources validation passed through
  /// ($dynamicRef, $recursiveRef), so validation tracks them.
  bool dynamic_scope = false;
};

/// Nested schema evaluations allowed before a "depth" violation (fail closed).
constexpr int kMaxValidationDepth = 256;

/// Nesting of schema objects in a document allowed at compile time.
constexpr int kMaxSchemaDepth = 256;

}  // namespace toolguard::schema
