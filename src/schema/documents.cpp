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
// (drafts 4-7; "$defs" too, which later drafts use and generators emit).
constexpr const char* kSchemaKeywords[] = {"items",
                                           "additionalItems",
                                           "additionalProperties",
                                           "not",
                                           "contains",
                                           "propertyNames",
                                           "if",
                                           "then",
                                           "else"};
constexpr const char* kSchemaArrayKeywords[] = {"items", "allOf", "anyOf", "oneOf"};
constexpr const char* kSchemaMapKeywords[] = {"properties", "patternProperties", "definitions",
                                              "$defs", "dependencies"};

bool hasRef(const Json& schema) {
  auto ref = schema.find("$ref");
  return ref != schema.end() && ref->is_string();
}

SchemaDraft draftOfDocument(const Json& json, SchemaDraft fallback, const std::string& uri) {
  if (!json.is_object()) return fallback;
  auto declared = json.find("$schema");
  if (declared == json.end()) return fallback;
  if (!declared->is_string()) throw SchemaError(uri + "#/$schema", "\"$schema\" must be a string");
  if (auto draft = draftOfMetaSchema(declared->get_ref<const std::string&>())) return *draft;
  throw SchemaError(uri + "#/$schema", "unsupported \"$schema\" " + declared->dump() +
                                           " (toolguard reads drafts 4, 6 and 7)");
}

}  // namespace

const char* idKeyword(SchemaDraft draft) {
  return draft == SchemaDraft::Draft4 ? "id" : "$id";
}

Documents::Documents(const Json& root, SchemaDraft draft, const SchemaStore* store)
    : store_(store), root_draft_(draft) {
  add("", root, draft);
}

std::size_t Documents::add(std::string uri, const Json& json, SchemaDraft draft) {
  const std::size_t doc = docs_.size();
  docs_.push_back({uri, &json, draft});
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
  std::string here = base;
  auto id = schema.find(idKeyword(draft));
  if (id != schema.end() && id->is_string() && !hasRef(schema)) {
    auto [uri, fragment] = splitFragment(resolveUri(base, id->get_ref<const std::string&>()));
    here = uri;
    if (fragment.empty()) {
      remember(uri, {doc, pointer});
    } else if (fragment[0] != '/') {
      remember(uri + "#" + fragment, {doc, pointer});
    }
  }
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

std::optional<Location> Documents::locate(const std::string& uri) {
  if (auto it = ids_.find(uri); it != ids_.end()) return it->second;
  const Json* json = store_ != nullptr ? store_->find(uri) : nullptr;
  if (json != nullptr) {
    add(uri, *json, draftOfDocument(*json, root_draft_, uri));
  } else if (auto draft = draftOfMetaSchema(uri)) {
    add(uri, metaSchema(*draft), *draft);
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
  auto id = schema.find(idKeyword(draft));
  if (id == schema.end() || !id->is_string() || hasRef(schema)) return std::string(base);
  return splitFragment(resolveUri(base, id->get_ref<const std::string&>())).first;
}

std::string Documents::display(std::size_t doc, std::string_view pointer) const {
  if (doc == 0) return std::string(pointer);
  return docs_[doc].uri + "#" + std::string(pointer);
}

}  // namespace toolguard::schema
