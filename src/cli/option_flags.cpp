// The shared command-line options (CLI11), see option_flags.hpp.
#include "cli/option_flags.hpp"

#include <iostream>

#include "cli/commands.hpp"
#include "policy/embedded_profiles.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::cli {

void addPolicyOptions(CLI::App& command, front::PolicyOptions& o) {
  command.add_option("--policy", o.policy_files, "Add a policy file (explicit layer); repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);  // one file per --policy: `-- COMMAND` stays positional
  command
      .add_option("--profile", o.profiles,
                  "Add a ready-made profile on top of the default: safe-chat, "
                  "developer-assistant, document-processing")
      ->type_name("NAME")
      ->check(CLI::Validator(
          [](std::string& name) -> std::string {
            return policyProfileText(name) != nullptr ? "" : detail::unknownProfileMessage(name);
          },
          ""))
      ->allow_extra_args(false);
  command
      .add_option("--project", o.project,
                  "Workspace whose .toolguard/ is the project layer (default: found from "
                  "the call's cwd upwards)")
      ->type_name("DIR");
  command.add_flag("--no-builtin", o.no_builtin, "Do not load the built-in default policy");
  command.add_flag("--no-user", o.no_user, "Do not load the user's policy files");
  command.add_flag("--no-project", o.no_project, "Do not load the project's policy files");
  command.add_flag("--no-managed", o.no_managed, "Do not load managed policy files");
}

void addHomeOption(CLI::App& command, std::string& home) {
  command.add_option("--home", home,
                     "toolguard's directory for approvals and the audit log (default: "
                     "$TOOLGUARD_HOME, else ~/.toolguard)");
}

void addGuardOptions(CLI::App& command, front::GuardCliOptions& options, bool with_prompt) {
  addHomeOption(command, options.home);
  if (with_prompt) {
    command.add_flag("--prompt", options.prompt,
                     "Ask on the terminal (/dev/tty) when a call needs approval; without it, "
                     "ask is reported (an agent's hook asks its own user)");
  }
  command
      .add_option("--approval-timeout", options.approval_timeout_s,
                  "Seconds a person has to answer the prompt before the call is denied")
      ->check(CLI::Range(1, 86400));
  command.add_option("--audit-log", options.audit_log,
                     "Append every decision to FILE (default: HOME/audit.jsonl)");
  command.add_flag("--no-audit", options.no_audit, "Do not write the audit log");
}

void addColourOption(CLI::App& command, std::string& mode) {
  command
      .add_option("--color", mode,
                  "Colour the verdicts: auto (on a terminal, unless NO_COLOR is set), always, "
                  "never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("WHEN");
}

void runSubcommand(int& exit_code, std::string_view prefix, const std::function<int()>& run) {
  try {
    exit_code = run();
  } catch (const std::exception& e) {
    std::cerr << prefix << ": " << terminalSafe(e.what()) << "\n";
    exit_code = kExitError;
  }
}

}  // namespace toolguard::cli
