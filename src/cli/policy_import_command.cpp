// `toolguard policy import --from claude|gemini|codex FILE [-o OUT]`: writes a
// toolguard policy equivalent to another agent's policy file, with comments
// naming the source lines, and tells where toolguard reads it more strictly.
#include "cli/policy_import_command.hpp"

#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "foreign_policy/foreign_policy.hpp"
#include "foreign_policy/policy_yaml_writer.hpp"
#include "policy/bounded_file.hpp"
#include "toolguard/policy_loader.hpp"

namespace toolguard::cli {
namespace {

struct ImportOptions {
  std::string from;
  std::string file;
  std::string output;
};

int runPolicyImport(const ImportOptions& o) {
  const auto format = detail::parseForeignFormat(o.from);
  if (!format) {
    std::cerr << "toolguard policy import: --from must be claude, gemini or codex\n";
    return kExitError;
  }
  std::string yaml;
  size_t notes = 0;
  size_t rules = 0;
  try {
    const std::string text = detail::readBoundedFile(o.file, kMaxPolicyFileBytes, "policy file");
    detail::ForeignPolicy imported =
        detail::importForeignPolicy(*format, text, o.file, PolicyLayer::Explicit);
    for (const detail::ImportNote& note : imported.notes) {
      std::cerr << note.where.toString() << ": note: " << note.message << "\n";
    }
    notes = imported.notes.size();
    rules = imported.document.rules.size();
    yaml = detail::writePolicyYaml(imported, o.from + " file " + o.file);
    // What is written must load: a policy that does not is never handed out.
    Policy check;
    mergePolicyText(check, yaml, o.output.empty() ? "<import>" : o.output, PolicyLayer::Explicit);
    if (auto failures = checkRuleExamples(check); !failures.empty()) throw PolicyError(failures);
  } catch (const PolicyError& e) {
    for (const auto& d : e.errors())
      std::cerr << d.where.toString() << ": error: " << d.message << "\n";
    return kExitError;
  }
  if (o.output.empty()) {
    std::cout << yaml;
  } else {
    std::ofstream out(o.output, std::ios::trunc);
    out << yaml;
    if (!out.flush()) {
      std::cerr << "toolguard policy import: cannot write " << o.output << "\n";
      return kExitError;
    }
  }
  std::cerr << "imported " << rules << (rules == 1 ? " rule" : " rules") << " from " << o.file
            << (o.output.empty() ? "" : " into " + o.output) << "; " << notes
            << (notes == 1 ? " note" : " notes") << "\n";
  return kExitOk;
}

}  // namespace

void addPolicyImportCommand(CLI::App& policy, int& exit_code) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App* cmd = policy.add_subcommand(
      "import",
      "Write a toolguard policy equivalent to another agent's policy file (Claude Code "
      "settings.json permissions, a Gemini CLI policy .toml, a Codex .rules file). Notes on "
      "stderr say where toolguard reads a rule more strictly. The same files load directly "
      "with --policy.");
  cmd->add_option("--from", options->from, "The source format: claude, gemini or codex")
      ->required()
      ->check(CLI::IsMember({"claude", "gemini", "codex"}));
  cmd->add_option("file", options->file, "The source file")->required()->type_name("FILE");
  cmd->add_option("-o,--output", options->output, "Write the policy here instead of stdout")
      ->type_name("FILE");
  cmd->callback([options, &exit_code] { exit_code = runPolicyImport(*options); });
}

}  // namespace toolguard::cli
