#pragma once
// JSON Schema validation (drafts 4, 6, 7, 2019-09 and 2020-12) of tool-call
// arguments.
//
// A schema is compiled once into an immutable tree (regular expressions
// compiled with RE2, every $ref resolved) and then validates any number of
// instances, from any number of threads, without parsing anything again.
// No network is ever used: $ref reaches the schema itself, the built-in
// meta-schemas of every supported draft and the documents of a SchemaStore.
// See docs/json-schema.md.

#include <cstddef>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace toolguard {

namespace schema {
struct CompiledSchema;
}

/// Which JSON Schema draft a schema is read as (in order of publication).
enum class SchemaDraft { Draft4, Draft6, Draft7, Draft2019_09, Draft2020_12 };

/// One failed check: where in the instance (JSON pointer, RFC 6901, "" = root),
/// which keyword failed, where in the schema (JSON pointer into the schema
/// document; "URI#pointer" for another document), and a message for people
/// and models (`"KEYWORD" failed: DETAIL`).
struct SchemaViolation {
  std::string instance_pointer;
  std::string keyword;
  std::string schema_pointer;
  std::string message;
};

/// "POINTER: message" on one line, with the pointer in URI-fragment form
/// ("#" for the root, "#/a/0", "#/a%20b" ...), e.g.
/// `#/path: "pattern" failed: "a b" does not match "^[a-z]+$"`.
std::string describe(const SchemaViolation& violation);

/// A schema that cannot be compiled (bad keyword value, a pattern RE2 rejects,
/// an unresolvable $ref, an unsupported $schema ...). what() names the schema
/// pointer in URI-fragment form; pointer() gives it as a JSON pointer.
class SchemaError : public std::runtime_error {
 public:
  SchemaError(std::string pointer, const std::string& message);

  /// Where in the schema (JSON pointer, "" = root; "URI#pointer" in another document).
  const std::string& pointer() const noexcept { return pointer_; }

 private:
  std::string pointer_;
};

/// Documents that $ref may point at by absolute URI (no network is ever used).
/// The meta-schemas of drafts 4, 6, 7, 2019-09 and 2020-12 (with the
/// vocabulary meta-schemas of the last two) are built in and need no adding.
/// Compiling copies what it needs: the store may go away afterwards.
class SchemaStore {
 public:
  /// Registers `document` under the absolute URI `uri` (an empty fragment, a
  /// trailing "#", is ignored; any other fragment is an std::invalid_argument).
  /// A document already registered under that URI is replaced.
  void add(std::string uri, nlohmann::json document);

  /// The document registered under `uri` (empty fragment ignored), or nullptr.
  const nlohmann::json* find(std::string_view uri) const;

  /// How many documents are registered.
  std::size_t size() const { return documents_.size(); }

 private:
  std::map<std::string, std::shared_ptr<const nlohmann::json>, std::less<>> documents_;
};

/// How a schema is compiled and how much validation reports.
struct SchemaOptions {
  /// The draft to read the schema as, whatever its "$schema" says; unset:
  /// from its "$schema" (a known meta-schema, or one in `store` whose
  /// "$vocabulary" toolguard understands; anything else is a SchemaError),
  /// and `default_draft` when it has none.
  std::optional<SchemaDraft> draft;
  /// Extra documents for $ref, or nullptr.
  const SchemaStore* store = nullptr;
  /// At most this many violations from violations() (0 counts as 1).
  std::size_t max_violations = 16;
  /// The draft of a schema without "$schema" (MCP: Draft2020_12).
  SchemaDraft default_draft = SchemaDraft::Draft7;
};

/// A compiled schema: immutable, cheap to copy (shared state), safe to use
/// from many threads at once.
class JsonSchema {
 public:
  /// Compiles `schema`; throws SchemaError when it cannot be compiled.
  static JsonSchema compile(const nlohmann::json& schema, const SchemaOptions& options = {});

  /// The first violation in evaluation order, or nullopt when `instance` is valid.
  std::optional<SchemaViolation> firstViolation(const nlohmann::json& instance) const;
  /// Every violation, up to SchemaOptions::max_violations; empty when valid.
  std::vector<SchemaViolation> violations(const nlohmann::json& instance) const;
  /// Whether `instance` is valid (the fastest of the three: stops at the first failure).
  bool isValid(const nlohmann::json& instance) const;

  /// The draft the schema was read as.
  SchemaDraft draft() const;

 private:
  explicit JsonSchema(std::shared_ptr<const schema::CompiledSchema> state);
  std::shared_ptr<const schema::CompiledSchema> state_;
};

}  // namespace toolguard
