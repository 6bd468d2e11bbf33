#pragma once
// `toolguard policy import`: another agent's policy file as a toolguard policy.

#include <CLI/CLI.hpp>

namespace toolguard::cli {

/// Adds `import` under the `policy` command.
void addPolicyImportCommand(CLI::App& policy, int& exit_code);

}  // namespace toolguard::cli
