#pragma once
// The documents a schema's $refs can reach (the schema itself, SchemaStore
// documents, the built-in meta-schemas), the URIs their "$id"/"id" keywords
// give to subschemas, their anchors ("$anchor", "$dynamicAnchor",
// "$recursiveAnchor"), and the resolution of a $ref to a place in a document.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/dialect.hpp"
#include "schema/json_values.hpp"
#include "toolguard/json_schema.hpp"

namespace toolguard::schema {

/// A place in a document: which document, and a JSON pointer inside it.
struct Location {
  std::size_t doc = 0;
  std::string pointer;
};

/// One document schemas are read from.
struct Document {
  std::string uri;  // absolute, without fragment; "" for a root schema without an id
  const Json* json = nullptr;
  SchemaDraft draft = SchemaDraft::Draft7;
  unsigned vocabularies = kAllVocabularies;
};

/// The documents of one compilation, loaded on demand.
class Documents {
 public:
  /// Document 0 is `root`, read in `dialect`; `store` may be nullptr. Both
  /// must outlive this object.
  Documents(const Json& root, Dialect dialect, const SchemaStore* store);

  /// Document `index`.
  const Document& at(std::size_t index) const { return docs_[index]; }

  /// Where $ref `ref`, found in a schema whose base URI is `base`, points.
  /// Throws SchemaError at `where` when nothing is there.
  Location resolve(std::string_view base, std::string_view ref, const std::string& where);

  /// The value at `location` (which exists: it came from resolve()).
  const Json& valueAt(const Location& location) const;

  /// The base URI in effect inside the schema at `location`.
  std::string baseAt(const Location& location) const;

  /// The base URI inside `schema`, a schema whose parent's base URI is `base`:
  /// changed by its "$id" ("id" in draft 4) unless a "$ref" makes siblings
  /// void (drafts 4-7).
  static std::string applyId(std::string_view base, const Json& schema, SchemaDraft draft);

  /// The "$dynamicAnchor"s of the schema resource `uri` (2020-12): name -> place.
  const std::map<std::string, Location, std::less<>>* dynamicAnchors(const std::string& uri) const;

  /// Where the root of the schema resource `uri` is, when its root says
  /// "$recursiveAnchor": true (2019-09).
  std::optional<Location> recursiveAnchor(const std::string& uri) const;

  /// How violations and errors name `pointer` in document `doc`: the pointer
  /// itself in the root document, "URI#pointer" elsewhere.
  std::string display(std::size_t doc, std::string_view pointer) const;

 private:
  std::optional<Location> locate(const std::string& uri);
  std::size_t add(std::string uri, const Json& json, Dialect dialect);
  void indexAnchors(std::size_t doc, const Json& schema, const std::string& pointer,
                    const std::string& base, bool resource_root);
  void index(std::size_t doc, const Json& schema, const std::string& pointer,
             const std::string& base, int depth);
  void remember(const std::string& uri, Location location);

  const SchemaStore* store_;
  SchemaDraft root_draft_;
  std::vector<Document> docs_;
  std::map<std::string, Location, std::less<>> ids_;  // absolute URI (and #name) -> place
  // resource URI -> "$dynamicAnchor" name -> place
  std::map<std::string, std::map<std::string, Location, std::less<>>, std::less<>> dynamic_;
  std::map<std::string, Location, std::less<>> recursive_;  // resource URI -> its root
};

/// The keyword holding a schema's id in `draft`: "id" in draft 4, else "$id".
const char* idKeyword(SchemaDraft draft);

}  // namespace toolguard::schema
