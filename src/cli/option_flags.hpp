#pragma once
// The command-line options (CLI11) that several sub-commands share. The data
// they fill (front::PolicyOptions, front::GuardCliOptions, a colour mode) and what is built
// from it live in policy_options.hpp, guard_options.hpp and colour.hpp, which
// the C API and the service use without CLI11.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <string_view>

#include "front/guard_options.hpp"
#include "front/policy_options.hpp"

namespace toolguard::cli {

/// Adds --policy, --profile, --project, --no-builtin, --no-user, --no-project, --no-managed.
void addPolicyOptions(CLI::App& command, front::PolicyOptions& options);

/// Adds --home to a command (every command that uses the store or the log).
void addHomeOption(CLI::App& command, std::string& home);

/// Adds --home, --prompt, --approval-timeout, --audit-log and --no-audit
/// (--prompt only when `with_prompt`).
void addGuardOptions(CLI::App& command, front::GuardCliOptions& options, bool with_prompt = true);

/// Adds `--color auto|always|never` (default auto) to a command.
void addColourOption(CLI::App& command, std::string& mode);

/// Runs a sub-command into `exit_code`: an exception (a store or file that
/// cannot be read or written) exits 2, its message on stderr after
/// `prefix` ("toolguard pins"), made safe for a terminal.
void runSubcommand(int& exit_code, std::string_view prefix, const std::function<int()>& run);

}  // namespace toolguard::cli
