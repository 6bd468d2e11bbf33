// Schema documents to compiled nodes.
#include "schema/compiler.hpp"

#include <limits>

#include "schema/json_pointer.hpp"
#include "schema/keywords.hpp"
#include "schema/meta_schemas.hpp"
#include "schema/regex.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// Keywords of drafts 2019-09 and 2020-12 that assert something: read as
// draft 7 they would be ignored and let invalid values through, so a schema
// using them is refused instead.
constexpr const char* kLaterDraftKeywords[] = {
    "prefixItems",       "unevaluatedItems", "unevaluatedProperties",
    "dependentRequired", "dependentSchemas", "minContains",
    "maxContains",       "$dynamicRef",      "$recursiveRef"};

void refuseLaterDraftKeywords(const Json& schema, const std::string& display) {
  for (const char* keyword : kLaterDraftKeywords) {
    if (schema.contains(keyword)) {
      throw SchemaError(childPointer(display, keyword),
                        "\"" + std::string(keyword) +
                            "\" is a keyword of draft 2019-09 or later, which toolguard does not "
                            "read (drafts 4, 6 and 7 only)");
    }
  }
}

}  // namespace

SchemaDraft draftFor(const Json& schema, const SchemaOptions& options) {
  if (options.draft) return *options.draft;
  if (!schema.is_object()) return SchemaDraft::Draft7;
  auto declared = schema.find("$schema");
  if (declared == schema.end()) return SchemaDraft::Draft7;
  if (!declared->is_string()) throw SchemaError("/$schema", "\"$schema\" must be a string");
  if (auto draft = draftOfMetaSchema(declared->get_ref<const std::string&>())) return *draft;
  throw SchemaError("/$schema", "unsupported \"$schema\" " +
                                    quoteText(declared->get<std::string>()) +
                                    ": toolguard reads drafts 4, 6 and 7 "
                                    "(\"http://json-schema.org/draft-07/schema#\" ...); set "
                                    "SchemaOptions::draft to read the schema as one of them");
}

// --- Scope ---------------------------------------------------------------

Scope::Scope(Compiler& compiler, const Json& schema, Location location, std::string display,
             std::string base, SchemaDraft draft, int depth)
    : compiler_(compiler),
      schema_(schema),
      location_(std::move(location)),
      display_(std::move(display)),
      base_(std::move(base)),
      draft_(draft),
      depth_(depth) {}

const Json* Scope::find(std::string_view keyword) const {
  auto it = schema_.find(keyword);
  return it == schema_.end() ? nullptr : &*it;
}

std::string Scope::pointerOf(std::string_view keyword) const {
  return childPointer(display_, keyword);
}

std::string Scope::pointerOf(std::string_view keyword, std::string_view member) const {
  return childPointer(pointerOf(keyword), member);
}

std::string Scope::pointerOf(std::string_view keyword, std::size_t index) const {
  return childPointer(pointerOf(keyword), index);
}

KeywordInfo Scope::info(std::string_view keyword) const {
  return {std::string(keyword), pointerOf(keyword)};
}

NodeId Scope::child(const Json& value, std::string raw_pointer) {
  Location location{location_.doc, std::move(raw_pointer)};
  const std::string base = Documents::applyId(base_, value, draft_);
  return compiler_.compileAt(location, value, base, depth_ + 1);
}

NodeId Scope::subschema(std::string_view keyword) {
  return child(schema_.at(std::string(keyword)), childPointer(location_.pointer, keyword));
}

NodeId Scope::subschema(std::string_view keyword, std::string_view member) {
  const Json& value = schema_.at(std::string(keyword)).at(std::string(member));
  return child(value, childPointer(childPointer(location_.pointer, keyword), member));
}

NodeId Scope::subschema(std::string_view keyword, std::size_t index) {
  const Json& value = schema_.at(std::string(keyword)).at(index);
  return child(value, childPointer(childPointer(location_.pointer, keyword), index));
}

void Scope::add(Applies applies, std::unique_ptr<Keyword> check) {
  checks_.list(applies).push_back(std::move(check));
}

void Scope::fail(std::string_view keyword, const std::string& message) const {
  throw SchemaError(pointerOf(keyword), "\"" + std::string(keyword) + "\" " + message);
}

void Scope::failAt(const std::string& pointer, const std::string& message) const {
  throw SchemaError(pointer, message);
}

std::shared_ptr<const re2::RE2> Scope::regex(const std::string& pattern,
                                             const std::string& pointer) const {
  std::string error;
  auto re = compilePattern(pattern, error);
  if (!re) {
    failAt(pointer, "invalid regular expression " + quoteText(pattern, 200) + ": " + error +
                        " (patterns run on RE2: no look-around, no backreferences)");
  }
  return re;
}

std::size_t Scope::count(std::string_view keyword) const {
  const Json& value = *find(keyword);
  if (value.is_number_unsigned()) return value.get<std::size_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
    return static_cast<std::size_t>(value.get<std::int64_t>());
  }
  if (value.is_number_float() && isInteger(value, SchemaDraft::Draft7) &&
      value.get<double>() >= 0) {
    const double d = value.get<double>();
    return d >= 1.8e19 ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(d);
  }
  fail(keyword, "must be a non-negative integer, not " + renderValue(value));
}

// --- Compiler ------------------------------------------------------------

Compiler::Compiler(const Json& root, const SchemaOptions& options)
    : out_(std::make_shared<CompiledSchema>()),
      documents_(root, draftFor(root, options), options.store) {
  out_->draft = documents_.at(0).draft;
  out_->max_violations = options.max_violations == 0 ? 1 : options.max_violations;
}

std::shared_ptr<const CompiledSchema> Compiler::run() {
  const Document& root = documents_.at(0);
  out_->root = compileAt({0, ""}, *root.json, Documents::applyId("", *root.json, root.draft), 0);
  while (!pending_.empty()) {
    auto [id, location] = pending_.back();
    pending_.pop_back();
    if (out_->nodes[id].kind != Node::Kind::Pending) continue;
    compileInto(id, location, documents_.valueAt(location), documents_.baseAt(location), 0);
  }
  resolveRefChains();
  return out_;
}

NodeId Compiler::reserve(const Location& location) {
  auto [it, inserted] = by_location_.try_emplace({location.doc, location.pointer}, 0);
  if (!inserted) return it->second;
  const auto id = static_cast<NodeId>(out_->nodes.size());
  it->second = id;
  out_->nodes.emplace_back();
  out_->nodes.back().pointer = documents_.display(location.doc, location.pointer);
  pending_.emplace_back(id, location);
  return id;
}

NodeId Compiler::compileAt(const Location& location, const Json& value, const std::string& base,
                           int depth) {
  const NodeId id = reserve(location);
  if (out_->nodes[id].kind == Node::Kind::Pending) compileInto(id, location, value, base, depth);
  return id;
}

void Compiler::compileInto(NodeId id, const Location& location, const Json& value,
                           const std::string& base, int depth) {
  const SchemaDraft draft = documents_.at(location.doc).draft;
  const std::string display = documents_.display(location.doc, location.pointer);
  if (depth > kMaxSchemaDepth) {
    throw SchemaError(display, "the schema is nested more than " + std::to_string(kMaxSchemaDepth) +
                                   " levels deep");
  }
  if (value.is_boolean()) {
    if (draft == SchemaDraft::Draft4) {
      throw SchemaError(
          display, "a schema must be an object in draft 4 (boolean schemas came with draft 6)");
    }
    out_->nodes[id].kind = value.get<bool>() ? Node::Kind::Keywords : Node::Kind::False;
    return;
  }
  if (!value.is_object()) {
    throw SchemaError(
        display, "a schema must be an object" +
                     std::string(draft == SchemaDraft::Draft4 ? "" : " or a boolean") + ", not " +
                     renderValue(value));
  }
  out_->nodes[id].kind = Node::Kind::Keywords;  // being compiled
  if (auto ref = value.find("$ref"); ref != value.end()) {
    // Drafts 4-7: every other keyword next to "$ref" is ignored.
    const std::string where = childPointer(display, "$ref");
    if (!ref->is_string()) throw SchemaError(where, "\"$ref\" must be a string");
    const Location target = documents_.resolve(base, ref->get_ref<const std::string&>(), where);
    const NodeId target_id = reserve(target);
    out_->nodes[id].kind = Node::Kind::Ref;
    out_->nodes[id].target = target_id;
    return;
  }
  refuseLaterDraftKeywords(value, display);
  Scope scope(*this, value, location, display, base, draft, depth);
  compileGeneralKeywords(scope);
  compileNumberKeywords(scope);
  compileStringKeywords(scope);
  compileArrayKeywords(scope);
  compileObjectKeywords(scope);
  compileCombinatorKeywords(scope);
  Node& node = out_->nodes[id];
  node.any = std::move(scope.checks_.any);
  node.number = std::move(scope.checks_.number);
  node.string = std::move(scope.checks_.string);
  node.array = std::move(scope.checks_.array);
  node.object = std::move(scope.checks_.object);
  node.combinators = std::move(scope.checks_.combinators);
}

void Compiler::resolveRefChains() {
  std::vector<Node>& nodes = out_->nodes;
  for (Node& node : nodes) {
    if (node.kind == Node::Kind::Pending) {
      throw SchemaError(node.pointer, "internal error: a subschema was never compiled");
    }
    if (node.kind != Node::Kind::Ref) continue;
    NodeId target = node.target;
    std::size_t steps = 0;
    while (nodes[target].kind == Node::Kind::Ref) {
      target = nodes[target].target;
      if (++steps > nodes.size()) {
        throw SchemaError(childPointer(node.pointer, "$ref"),
                          "\"$ref\" cycle: the references lead back to themselves, never to a "
                          "schema");
      }
    }
    node.target = target;
  }
}

}  // namespace toolguard::schema
