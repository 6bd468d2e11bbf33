// `toolguard validate --schema FILE`: JSON instances on stdin, one per line,
// each answered `valid` or `invalid: ` + the first violation.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "json/json_error.hpp"
#include "toolguard/json_schema.hpp"

namespace toolguard::cli {
namespace {

struct ValidateOptions {
  std::string schema_file;
  std::string draft;
};

std::optional<JsonSchema> loadSchema(const ValidateOptions& o) {
  std::ifstream in(o.schema_file, std::ios::binary);
  if (!in) {
    std::cerr << "toolguard validate: " << o.schema_file << ": cannot read the schema file\n";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "toolguard validate: " << o.schema_file << ": "
              << toolguard::detail::jsonErrorSentence(e) << "\n";
    return std::nullopt;
  }
  SchemaOptions options;
  if (o.draft == "4") options.draft = SchemaDraft::Draft4;
  if (o.draft == "6") options.draft = SchemaDraft::Draft6;
  if (o.draft == "7") options.draft = SchemaDraft::Draft7;
  try {
    return JsonSchema::compile(document, options);
  } catch (const SchemaError& e) {
    std::cerr << "toolguard validate: " << o.schema_file << ": invalid schema: " << e.what()
              << "\n";
    return std::nullopt;
  }
}

int runValidate(const ValidateOptions& o) {
  std::optional<JsonSchema> schema = loadSchema(o);
  if (!schema) return kExitError;
  bool all_valid = true;
  std::string line;
  for (std::size_t number = 1; std::getline(std::cin, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json instance;
    try {
      instance = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {
      all_valid = false;
      // The line of the input, the column within it.
      const toolguard::detail::JsonErrorText text = toolguard::detail::readJsonError(e.what());
      std::cout << "invalid: line " << number;
      if (text.column > 0) std::cout << ", column " << text.column;
      std::cout << ": not JSON: " << text.message << '\n';
      continue;
    }
    std::optional<SchemaViolation> violation = schema->firstViolation(instance);
    if (violation) {
      all_valid = false;
      std::cout << "invalid: " << describe(*violation) << '\n';
    } else {
      std::cout << "valid\n";
    }
  }
  std::cout << std::flush;
  return all_valid ? kExitOk : kExitFailed;
}

}  // namespace

void addValidateCommand(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Validate JSON values, one per line on stdin, against a JSON Schema (drafts 4, 6, 7).\n"
      "Prints `valid` or `invalid: POINTER: message` per line; blank lines are skipped.\n"
      "Exit code: 0 all valid, 1 any invalid, 2 the schema cannot be read or compiled.");
  cmd->add_option("--schema", options->schema_file, "The JSON Schema file")->required();
  cmd->add_option("--draft", options->draft,
                  "Read the schema as draft 4, 6 or 7 (default: its \"$schema\", else 7)")
      ->check(CLI::IsMember({"4", "6", "7"}));
  cmd->callback([options, &exit_code] { exit_code = runValidate(*options); });
}

}  // namespace toolguard::cli
