// libFuzzer target: the JSON Schema compiler and validator. The first byte
// picks the draft (or none: $schema / the default decides); the rest is a
// schema and an instance, both JSON, split at a NUL byte. The oracle: compile
// fails only with SchemaError; a compiled schema validates any instance
// without throwing, and its three answers agree (isValid, firstViolation,
// violations).
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "toolguard/json_schema.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace toolguard;
  fuzz::FuzzInput input(data, size);
  const uint8_t selector = input.takeByte();
  const std::vector<std::string> parts = input.parts(2);
  const nlohmann::json schema = nlohmann::json::parse(parts[0], nullptr, false);
  const nlohmann::json instance = nlohmann::json::parse(parts[1], nullptr, false);
  if (schema.is_discarded() || instance.is_discarded()) return 0;
  SchemaOptions options;
  static const SchemaDraft drafts[] = {SchemaDraft::Draft4, SchemaDraft::Draft6,
                                       SchemaDraft::Draft7, SchemaDraft::Draft2019_09,
                                       SchemaDraft::Draft2020_12};
  if (selector % 6 < 5) options.draft = drafts[selector % 6];
  options.max_violations = 1 + selector / 64;
  std::optional<JsonSchema> compiled;
  try {
    compiled = JsonSchema::compile(schema, options);
  } catch (const SchemaError&) {
    return 0;
  }
  const bool valid = compiled->isValid(instance);
  const std::optional<SchemaViolation> first = compiled->firstViolation(instance);
  const std::vector<SchemaViolation> all = compiled->violations(instance);
  if (valid != !first.has_value() || valid != all.empty()) __builtin_trap();
  if (all.size() > options.max_violations) __builtin_trap();
  for (const SchemaViolation& violation : all) (void)describe(violation);
  return 0;
}
