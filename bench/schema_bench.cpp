// JSON Schema compile and validation time for a typical MCP tool: the
// filesystem server's edit_file (object, required, additionalProperties
// false, an array of edit objects), with a path pattern and an enum added.
#include <benchmark/benchmark.h>

#include "toolguard/json_schema.hpp"

namespace {

using nlohmann::json;
using toolguard::JsonSchema;

const json& editFileSchema() {
  static const json schema = json::parse(R"({
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
      "path": {"type": "string", "pattern": "^[^\\u0000]+$", "maxLength": 4096},
      "edits": {
        "type": "array",
        "items": {
          "type": "object",
          "properties": {
            "oldText": {"type": "string", "description": "Text to search for - must match exactly"},
            "newText": {"type": "string", "description": "Text to replace with"}
          },
          "required": ["oldText", "newText"],
          "additionalProperties": false
        }
      },
      "dryRun": {"type": "boolean", "default": false,
                 "description": "Preview changes using git-style diff format"},
      "encoding": {"enum": ["utf-8", "latin-1", "utf-16"]},
      "mode": {"type": "integer", "minimum": 0, "maximum": 511}
    },
    "required": ["path", "edits"],
    "additionalProperties": false
  })");
  return schema;
}

const json& validArgs() {
  static const json args = json::parse(R"({
    "path": "/home/me/project/src/main.cpp",
    "edits": [
      {"oldText": "int main() {", "newText": "int main(int argc, char** argv) {"},
      {"oldText": "return 0;", "newText": "return run(argc, argv);"}
    ],
    "dryRun": false,
    "encoding": "utf-8",
    "mode": 420
  })");
  return args;
}

const json& invalidArgs() {
  static const json args = json::parse(R"({
    "path": "/home/me/project/src/main.cpp",
    "edits": [
      {"oldText": "int main() {", "newText": "int main(int argc, char** argv) {"},
      {"oldText": "return 0;", "new_text": "return run(argc, argv);"}
    ],
    "dryRun": false,
    "encoding": "utf8",
    "mode": 420
  })");
  return args;
}

void BM_SchemaCompile(benchmark::State& state) {
  for (auto _ : state) {
    JsonSchema schema = JsonSchema::compile(editFileSchema());
    benchmark::DoNotOptimize(schema);
  }
}
BENCHMARK(BM_SchemaCompile);

// isValid: the check an engine runs on every call.
void BM_SchemaValidate(benchmark::State& state, const json& (*args)()) {
  const JsonSchema schema = JsonSchema::compile(editFileSchema());
  const json& instance = args();
  for (auto _ : state) {
    bool valid = schema.isValid(instance);
    benchmark::DoNotOptimize(valid);
  }
}
BENCHMARK_CAPTURE(BM_SchemaValidate, valid, validArgs);
BENCHMARK_CAPTURE(BM_SchemaValidate, invalid, invalidArgs);

// firstViolation: the pointer and message a denial carries.
void BM_SchemaFirstViolation(benchmark::State& state, const json& (*args)()) {
  const JsonSchema schema = JsonSchema::compile(editFileSchema());
  const json& instance = args();
  for (auto _ : state) {
    auto violation = schema.firstViolation(instance);
    benchmark::DoNotOptimize(violation);
  }
}
BENCHMARK_CAPTURE(BM_SchemaFirstViolation, valid, validArgs);
BENCHMARK_CAPTURE(BM_SchemaFirstViolation, invalid, invalidArgs);

}  // namespace
