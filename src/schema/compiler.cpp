// Schema documents to compiled nodes.
#include "schema/compiler.hpp"

#include <limits>

#include "schema/json_pointer.hpp"
#include "schema/keywords.hpp"
#include "schema/regex.hpp"
#include "schema/uri.hpp"
#include "schema/value_text.hpp"

namespace toolguard::schema {
namespace {

// Keywords of drafts 2019-09 and 2020-12 that assert something: read as
// drafts 4-7 they would be ignored and let invalid values through, so a
// schema read as one of those drafts that uses them is refused instead.
constexpr const char* kLaterDraftKeywords[] = {
    "prefixItems",       "unevaluatedItems", "unevaluatedProperties",
    "dependentRequired", "dependentSchemas", "minContains",
    "maxContains",       "$dynamicRef",      "$recursiveRef"};

void refuseLaterDraftKeywords(const Json& schema, const std::string& display) {
  for (const char* keyword : kLaterDraftKeywords) {
    if (schema.contains(keyword)) {
      throw SchemaError(childPointer(display, keyword),
                        "\"" + std::string(keyword) +
                            "\" is a keyword of draft 2019-09 or later, but the schema is read as "
                            "an earlier draft: say which draft it is written in with \"$schema\" "
                            "(\"https://json-schema.org/draft/2020-12/schema\")");
    }
  }
}

}  // namespace

Dialect dialectFor(const Json& schema, const SchemaOptions& options) {
  if (options.draft) return {*options.draft, kAllVocabularies};
  return dialectOf(schema, options.default_draft, options.store, "");
}

// --- Scope ---------------------------------------------------------------

Scope::Scope(Compiler& compiler, const Json& schema, Location location, std::string display,
             std::string base, SchemaDraft draft, unsigned vocabularies, int depth)
    : compiler_(compiler),
      schema_(schema),
      location_(std::move(location)),
      display_(std::move(display)),
      base_(std::move(base)),
      draft_(draft),
      vocabularies_(vocabularies),
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

std::string Scope::referenceText(std::string_view keyword) const {
  const Json* value = find(keyword);
  if (value == nullptr || !value->is_string()) fail(keyword, "must be a string");
  return value->get<std::string>();
}

NodeId Scope::reference(std::string_view keyword) {
  const Location target =
      compiler_.documents_.resolve(base_, referenceText(keyword), pointerOf(keyword));
  return compiler_.reserve(target);
}

std::string Scope::dynamicAnchorOf(std::string_view keyword) const {
  auto [uri, fragment] = splitFragment(resolveUri(base_, referenceText(keyword)));
  std::optional<std::string> name = percentDecode(fragment);
  if (!name || name->empty() || (*name)[0] == '/') return "";
  const auto* anchors = compiler_.documents_.dynamicAnchors(uri);
  return anchors != nullptr && anchors->count(*name) != 0 ? *name : "";
}

bool Scope::recursiveAnchorAt(std::string_view keyword) const {
  auto [uri, fragment] = splitFragment(resolveUri(base_, referenceText(keyword)));
  return fragment.empty() && compiler_.documents_.recursiveAnchor(uri).has_value();
}

void Scope::needAnnotations() {
  compiler_.out_->annotations = true;
}

void Scope::needDynamicScope() {
  compiler_.out_->dynamic_scope = true;
}

void Scope::fail(std::string_view keyword, const std::string& message) const {
  throw SchemaError(pointerOf(keyword), "\"" + std::string(keyword) + "\" " + message);
}

void Scope::failAt(const std::string& pointer, const std::string& message) const {
  throw SchemaError(pointer, message);
}

std::shared_ptr<const re2::RE2> Scope::regex(const std::string& pattern,
                                             const std::string& pointer) const {
  Expected<std::shared_ptr<const re2::RE2>> re = compilePattern(pattern);
  if (!re) {
    failAt(pointer, "invalid regular expression " + quoteText(pattern, 200) + ": " + re.error() +
                        " (patterns run on RE2: no look-around, no backreferences)");
  }
  return *re;
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
      documents_(root, dialectFor(root, options), options.store) {
  out_->draft = documents_.at(0).draft;
  out_->max_violations = options.max_violations == 0 ? 1 : options.max_violations;
}

std::shared_ptr<const CompiledSchema> Compiler::run() {
  const Document& root = documents_.at(0);
  out_->root = compileAt({0, ""}, *root.json, Documents::applyId("", *root.json, root.draft), 0);
  // $dynamicRef and $recursiveRef may go to the anchors of any resource
  // validation passes through: compile those too, until nothing new comes.
  std::uint32_t anchored = 0;
  for (;;) {
    compilePending();
    if (!out_->dynamic_scope || anchored == out_->resources.size()) break;
    while (anchored < out_->resources.size()) addAnchors(anchored++);
  }
  resolveRefChains();
  return out_;
}

void Compiler::compilePending() {
  while (!pending_.empty()) {
    auto [id, location] = pending_.back();
    pending_.pop_back();
    if (out_->nodes[id].kind != Node::Kind::Pending) continue;
    compileInto(id, location, documents_.valueAt(location), documents_.baseAt(location), 0);
  }
}

void Compiler::addAnchors(std::uint32_t resource) {
  const std::string uri = out_->resources[resource].uri;
  if (const auto* anchors = documents_.dynamicAnchors(uri)) {
    for (const auto& [name, location] : *anchors) {
      const NodeId id = reserve(location);
      out_->resources[resource].dynamic_anchors.emplace(name, id);
    }
  }
  if (std::optional<Location> root = documents_.recursiveAnchor(uri)) {
    const NodeId id = reserve(*root);
    out_->resources[resource].recursive_root = id;
  }
}

std::uint32_t Compiler::resourceOf(const std::string& base) {
  auto [it, inserted] =
      resource_ids_.try_emplace(base, static_cast<std::uint32_t>(out_->resources.size()));
  if (inserted) out_->resources.push_back({base, {}, std::nullopt});
  return it->second;
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
  const bool later = atLeast(draft, SchemaDraft::Draft2019_09);
  out_->nodes[id].resource = resourceOf(base);
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
  if (auto ref = value.find("$ref"); ref != value.end() && !later) {
    // Drafts 4-7: every other keyword next to "$ref" is ignored.
    const std::string where = childPointer(display, "$ref");
    if (!ref->is_string()) throw SchemaError(where, "\"$ref\" must be a string");
    const Location target = documents_.resolve(base, ref->get_ref<const std::string&>(), where);
    const NodeId target_id = reserve(target);
    out_->nodes[id].kind = Node::Kind::Ref;
    out_->nodes[id].target = target_id;
    return;
  }
  if (!later) refuseLaterDraftKeywords(value, display);
  Scope scope(*this, value, location, display, base, draft,
              documents_.at(location.doc).vocabularies, depth);
  compileGeneralKeywords(scope);
  compileNumberKeywords(scope);
  compileStringKeywords(scope);
  compileArrayKeywords(scope);
  compileObjectKeywords(scope);
  compileReferenceKeywords(scope);
  compileCombinatorKeywords(scope);
  compileUnevaluatedKeywords(scope);
  Node& node = out_->nodes[id];
  node.any = std::move(scope.checks_.any);
  node.number = std::move(scope.checks_.number);
  node.string = std::move(scope.checks_.string);
  node.array = std::move(scope.checks_.array);
  node.object = std::move(scope.checks_.object);
  node.combinators = std::move(scope.checks_.combinators);
  node.unevaluated = std::move(scope.checks_.unevaluated);
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
