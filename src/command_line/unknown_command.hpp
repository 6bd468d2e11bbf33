#pragma once
// A mistyped sub-command at any level (`toolguard chek`, `toolguard policy
// lnt`) named with what was probably meant, before CLI11 parses; a mistyped
// option (`toolguard check --polcy`) after CLI11 has refused it.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace toolguard::command_line {

/// "unknown command 'policy lnt' (did you mean 'policy lint'?)" when the words
/// of argv name a sub-command that does not exist where one is required (or
/// where no option or argument could take the word); nullopt otherwise.
std::optional<std::string> unknownCommandMessage(CLI::App& app, int argc, const char* const* argv);

/// "unknown option '--polcy' (did you mean '--policy'?); see toolguard check
/// --help" for the first word of argv that looks like an option of the
/// sub-command it follows but is none of its options; nullopt when every
/// option-like word is known. `program` names the command in the hint
/// ("toolguard", "toolguard serve").
std::optional<std::string> unknownOptionMessage(CLI::App& app, int argc, const char* const* argv,
                                                const std::string& program);

}  // namespace toolguard::command_line
