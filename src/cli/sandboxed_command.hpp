#pragma once
// A shell command rewritten to run under `toolguard sandbox`: what a hook
// answers (Claude Code's updatedInput, Gemini CLI's tool_input) for a shell
// call it allows, so that what the guard allowed runs where the kernel
// holds it.

#include <string>
#include <vector>

#include "front/policy_options.hpp"

namespace toolguard::cli {

/// The arguments that run `command` under `toolguard sandbox` at `binary`,
/// with the workspaces and the policy layers `policy` names (the first is
/// the binary), and what the rule `rule` adds to the confinement (its own
/// sandbox:; "" for none).
std::vector<std::string> sandboxedArguments(const std::string& binary,
                                            const std::vector<std::string>& workspaces,
                                            const front::PolicyOptions& policy,
                                            const std::vector<std::string>& command,
                                            const std::string& rule = "");

/// The command line (shell text) that runs `command` with bash, as the
/// agent's shell tool would (`bash -c COMMAND`), confined by `toolguard
/// sandbox` at `binary` with the workspaces and the policy layers `policy`
/// names, and what the rule `rule` adds ("" for none). Every word is quoted
/// so that bash hands the sandbox exactly `command`, byte for byte.
std::string sandboxedShellCommand(const std::string& binary,
                                  const std::vector<std::string>& workspaces,
                                  const front::PolicyOptions& policy, const std::string& command,
                                  const std::string& rule = "");

}  // namespace toolguard::cli
