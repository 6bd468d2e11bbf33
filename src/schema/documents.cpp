// Documents, ids and $ref resolution.
#include "schema/documents.hpp"

#include "schema/json_pointer.hpp"
#include "schema/meta_schemas.hpp"
#include "schema/node.hpp"
#include "schema/uri.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// Keywords whose value is a schema, an array of schemas, or an object of schemas
// (those of every draft: a keyword of another draft is ignored when compiling,
// and an "$id" under it names nothing anyone could reach by mistake).
constexpr const char* kSchemaKeywords[] = {"items",
                                           "additionalItems",
                                           "additionalProperties",
                                           "not",
                                           "contains",
                                           "propertyNames",
                                           "if",
                                           "then",
                                           "else",
                                           "unevaluatedItems",
                                           "unevaluatedProperties"};
constexpr const char* kSchemaArrayKeywords[] = {"items", "prefixItems", "allOf", "anyOf", "oneOf"};
constexpr const char* kSchemaMapKeywords[] = {
    "properties", "patternProperties", "definitions", "$defs", "dependencies", "dependentSchemas"};

// Drafts 4-7: a "$ref" makes every other keyword of its schema void, "$id" included.
bool refVoidsSiblings(const Json& schema, SchemaDraft draft) {
  if (atLeast(draft, SchemaDraft::Draft2019_09)) return false;
  auto ref = schema.find("$ref");
  return ref != schema.end() && ref->is_string();
}

const std::string* stringMember(const Json& schema, const char* keyword) {
  auto it = schema.find(keyword);
  return it != schema.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

}  // namespace

const char* idKeyword(SchemaDraft draft) {
  return draft == SchemaDraft::Draft4 ? "id" : "$id";
}

Documents::Documents(const Json& root, Dialect dialect, const SchemaStore* store)
    : store_(store), root_draft_(dialect.draft) {
  add("", root, dialect);
}

std::size_t Documents::add(std::string uri, const Json& json, Dialect dialect) {
  const std::size_t doc = docs_.size();
  docs_.push_back({uri, &json, dialect.draft, dialect.vocabularies});
  remember(uri, {doc, ""});
  index(doc, json, "", uri, 0);
  return doc;
}

void Documents::remember(const std::string& uri, Location location) {
  auto [it, inserted] = ids_.try_emplace(uri, location);
  if (inserted) return;
  const Location& known = it->second;
  if (known.doc == location.doc && known.pointer != location.pointer) {
    throw SchemaError(
        display(location.doc, location.pointer),
        "the id \"" + uri + "\" is already used at " + display(known.doc, known.pointer));
  }
  // Another document got this URI first: the first one keeps it.
}

void Documents::index(std::size_t doc, const Json& schema, const std::string& pointer,
                      const std::string& base, int depth) {
  if (!schema.is_object()) return;
  if (depth > kMaxSchemaDepth) {
    throw SchemaError(display(doc, pointer), "the schema is nested more than " +
                                                 std::to_string(kMaxSchemaDepth) + " levels deep");
  }
  const SchemaDraft draft = docs_[doc].draft;
  const bool later = atLeast(draft, SchemaDraft::Draft2019_09);
  std::string here = base;
  bool resource_root = pointer.empty();
  const std::string* id = stringMember(schema, idKeyword(draft));
  if (id != nullptr && !refVoidsSiblings(schema, draft)) {
    auto [uri, fragment] = splitFragment(resolveUri(base, *id));
    if (fragment.empty()) {
      here = uri;
      resource_root = true;
      remember(uri, {doc, pointer});
    } else if (!later) {  // drafts 4-7: {"$id": "#name"} names a place
      here = uri;
      if (fragment[0] != '/') remember(uri + "#" + fragment, {doc, pointer});
    }
  }
  if (later) indexAnchors(doc, schema, pointer, here, resource_root);
  for (const char* keyword : kSchemaKeywords) {
    auto it = schema.find(keyword);
    if (it != schema.end() && it->is_object()) {
      index(doc, *it, childPointer(pointer, keyword), here, depth + 1);
    }
  }
  for (const char* keyword : kSchemaArrayKeywords) {
    auto it = schema.find(keyword);
    if (it == schema.end() || !it->is_array()) continue;
    const std::string at = childPointer(pointer, keyword);
    for (std::size_t i = 0; i < it->size(); ++i) {
      index(doc, (*it)[i], childPointer(at, i), here, depth + 1);
    }
  }
  for (const char* keyword : kSchemaMapKeywords) {
    auto it = schema.find(keyword);
    if (it == schema.end() || !it->is_object()) continue;
    const std::string at = childPointer(pointer, keyword);
    for (auto member = it->begin(); member != it->end(); ++member) {
      index(doc, member.value(), childPointer(at, member.key()), here, depth + 1);
    }
  }
}

void Documents::indexAnchors(std::size_t doc, const Json& schema, const std::string& pointer,
                             const std::string& base, bool resource_root) {
  const SchemaDraft draft = docs_[doc].draft;
  if (const std::string* anchor = stringMember(schema, "$anchor")) {
    remember(base + "#" + *anchor, {doc, pointer});
  }
  if (draft == SchemaDraft::Draft2020_12) {
    if (const std::string* anchor = stringMember(schema, "$dynamicAnchor")) {
      remember(base + "#" + *anchor, {doc, pointer});
      dynamic_[base].try_emplace(*anchor, Location{doc, pointer});
    }
  }
  if (draft == SchemaDraft::Draft2019_09 && resource_root) {
    auto flag = schema.find("$recursiveAnchor");
    if (flag != schema.end() && flag->is_boolean() && flag->get<bool>()) {
      recursive_.try_emplace(base, Location{doc, pointer});
    }
  }
}

const std::map<std::string, Location, std::less<>>* Documents::dynamicAnchors(
    const std::string& uri) const {
  auto it = dynamic_.find(uri);
  return it == dynamic_.end() ? nullptr : &it->second;
}

std::optional<Location> Documents::recursiveAnchor(const std::string& uri) const {
  auto it = recursive_.find(uri);
  if (it == recursive_.end()) return std::nullopt;
  return it->second;
}

std::optional<Location> Documents::locate(const std::string& uri) {
  if (auto it = ids_.find(uri); it != ids_.end()) return it->second;
  const Json* json = store_ != nullptr ? store_->find(uri) : nullptr;
  if (json != nullptr) {
    add(uri, *json, dialectOf(*json, root_draft_, store_, uri + "#"));
  } else if (auto built_in = builtInDocument(uri)) {
    add(uri, *built_in->json, {built_in->draft, kAllVocabularies});
  } else {
    return std::nullopt;
  }
  return ids_.at(uri);
}

Location Documents::resolve(std::string_view base, std::string_view ref, const std::string& where) {
  const std::string full = resolveUri(base, ref);
  auto [uri, fragment] = splitFragment(full);
  auto fail = [&](const std::string& why) -> SchemaError {
    std::string what = quoteText(ref, 200);
    if (full != ref) what += " (" + quoteText(full, 200) + ")";
    return SchemaError(where, "cannot resolve \"$ref\" " + what + ": " + why);
  };
  std::optional<Location> found = locate(uri);
  if (!found) {
    throw fail("no schema has the URI \"" + uri +
               "\" (no network is used: add the document to a SchemaStore)");
  }
  if (fragment.empty()) return *found;
  std::optional<std::string> decoded = percentDecode(fragment);
  if (!decoded) throw fail("bad %-escape in the fragment");
  if ((*decoded)[0] != '/') {  // a plain-name fragment: a location-independent id
    auto it = ids_.find(uri + "#" + fragment);
    if (it == ids_.end()) it = ids_.find(uri + "#" + *decoded);
    if (it == ids_.end()) throw fail("no subschema has the id \"#" + fragment + "\"");
    return it->second;
  }
  Location target{found->doc, found->pointer + *decoded};
  std::optional<std::vector<std::string>> tokens = parsePointer(target.pointer);
  if (!tokens) throw fail("the fragment is not a JSON pointer");
  if (resolvePointer(*docs_[target.doc].json, *tokens) == nullptr) {
    throw fail("nothing is at " + display(target.doc, target.pointer));
  }
  return target;
}

const Json& Documents::valueAt(const Location& location) const {
  const Json* value = resolvePointer(*docs_[location.doc].json, *parsePointer(location.pointer));
  return *value;
}

std::string Documents::baseAt(const Location& location) const {
  const Document& doc = docs_[location.doc];
  std::string base = applyId(doc.uri, *doc.json, doc.draft);
  const Json* at = doc.json;
  const std::vector<std::string> tokens =
      parsePointer(location.pointer).value_or(std::vector<std::string>{});
  for (const std::string& token : tokens) {
    at = resolvePointer(*at, {token});
    if (at == nullptr) break;
    base = applyId(base, *at, doc.draft);
  }
  return base;
}

std::string Documents::applyId(std::string_view base, const Json& schema, SchemaDraft draft) {
  if (!schema.is_object()) return std::string(base);
  const std::string* id = stringMember(schema, idKeyword(draft));
  if (id == nullptr || refVoidsSiblings(schema, draft)) return std::string(base);
  return splitFragment(resolveUri(base, *id)).first;
}

std::string Documents::display(std::size_t doc, std::string_view pointer) const {
  if (doc == 0) return std::string(pointer);
  return docs_[doc].uri + "#" + std::string(pointer);
}

}  // namespace toolguard::schema
