#pragma once
// A mistyped sub-command at any level (`toolguard chek`, `toolguard policy
// lnt`) named with what was probably meant, before CLI11 parses.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace toolguard::cli {

/// "unknown command 'policy lnt' (did you mean 'policy lint'?)" when the words
/// of argv name a sub-command that does not exist where one is required (or
/// where no option or argument could take the word); nullopt otherwise.
std::optional<std::string> unknownCommandMessage(CLI::App& app, int argc, const char* const* argv);

}  // namespace toolguard::cli
