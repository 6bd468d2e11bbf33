// The public API: JsonSchema, SchemaStore, SchemaError, describe().
#include "toolguard/json_schema.hpp"

#include "schema/compiler.hpp"
#include "schema/context.hpp"
#include "schema/json_pointer.hpp"
#include "schema/uri.hpp"
#include "schema/value_text.hpp"

namespace toolguard {
namespace {

// "#/a/b" for a pointer in the root document, "URI#/a/b" for one elsewhere.
std::string locationText(const std::string& pointer) {
  if (pointer.empty() || pointer[0] == '/') return schema::fragmentOf(pointer);
  const std::size_t hash = pointer.find('#');
  if (hash == std::string::npos) return pointer;
  return pointer.substr(0, hash) + schema::fragmentOf(pointer.substr(hash + 1));
}

std::string withoutEmptyFragment(std::string_view uri) {
  if (!uri.empty() && uri.back() == '#') uri.remove_suffix(1);
  return std::string(uri);
}

}  // namespace

std::string describe(const SchemaViolation& violation) {
  return schema::fragmentOf(violation.instance_pointer) + ": " +
         schema::escapeControls(violation.message);
}

SchemaError::SchemaError(std::string pointer, const std::string& message)
    : std::runtime_error(locationText(pointer) + ": " + schema::escapeControls(message)),
      pointer_(std::move(pointer)) {}

void SchemaStore::add(std::string uri, nlohmann::json document) {
  auto [base, fragment] = schema::splitFragment(uri);
  if (!fragment.empty()) {
    throw std::invalid_argument("SchemaStore::add: \"" + uri +
                                "\" has a fragment; documents are registered without one");
  }
  documents_[base] = std::make_shared<const nlohmann::json>(std::move(document));
}

const nlohmann::json* SchemaStore::find(std::string_view uri) const {
  auto it = documents_.find(withoutEmptyFragment(uri));
  return it == documents_.end() ? nullptr : it->second.get();
}

JsonSchema::JsonSchema(std::shared_ptr<const schema::CompiledSchema> state)
    : state_(std::move(state)) {}

JsonSchema JsonSchema::compile(const nlohmann::json& schema, const SchemaOptions& options) {
  try {
    return JsonSchema(schema::Compiler(schema, options).run());
  } catch (const SchemaError&) {
    throw;
  } catch (const std::exception& e) {  // fail closed: never a half-compiled schema
    throw SchemaError("", std::string("cannot compile the schema: ") + e.what());
  }
}

std::vector<SchemaViolation> JsonSchema::violations(const nlohmann::json& instance) const {
  std::vector<SchemaViolation> found;
  schema::Context context(*state_, &found, state_->max_violations);
  const bool ok = context.validate(state_->root, instance);
  if (context.aborted()) {
    found.insert(found.begin(), context.abortViolation());
    if (found.size() > state_->max_violations) found.resize(state_->max_violations);
  } else if (!ok && found.empty()) {  // cannot happen; never report invalid as valid
    found.push_back({"", "schema", state_->nodes[state_->root].pointer, "the value is invalid"});
  }
  return found;
}

std::optional<SchemaViolation> JsonSchema::firstViolation(const nlohmann::json& instance) const {
  std::vector<SchemaViolation> found;
  schema::Context context(*state_, &found, 1);
  const bool ok = context.validate(state_->root, instance);
  if (context.aborted()) return context.abortViolation();
  if (!found.empty()) return std::move(found.front());
  if (!ok) return SchemaViolation{"", "schema", "", "the value is invalid"};
  return std::nullopt;
}

bool JsonSchema::isValid(const nlohmann::json& instance) const {
  schema::Context context(*state_, nullptr, 1);
  return context.validate(state_->root, instance) && !context.aborted();
}

SchemaDraft JsonSchema::draft() const {
  return state_->draft;
}

}  // namespace toolguard
