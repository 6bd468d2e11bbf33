#pragma once
// Internal: where the tables of harmless options live. Each group of
// programs has its own file of tables (table_*.cpp); this index finds a
// program's or subcommand's table by name.

#include <span>
#include <string>
#include <string_view>

#include "option_table.hpp"

namespace toolguard::detail {

/// Tools that read and print: coreutils, search tools, viewers (table_reading_tools.cpp).
std::span<const ProgramSpec> readingToolSpecs();
/// git and its subcommands (table_git.cpp).
std::span<const ProgramSpec> gitSpecs();
/// Builds, tests, package managers and compilers (table_build_tools.cpp).
std::span<const ProgramSpec> buildToolSpecs();
/// Formatters and linters (table_linters.cpp).
std::span<const ProgramSpec> linterSpecs();
/// File operations and shell builtins (table_file_tools.cpp).
std::span<const ProgramSpec> fileToolSpecs();

/// The spec for "grep", "git log", "git stash list", ...; nullptr when none.
const ProgramSpec* findProgramSpec(std::string_view command);

/// A spec's command with the first of each word's alternatives ("npm run|run-script" -> "npm run").
std::string canonicalCommand(std::string_view command);

}  // namespace toolguard::detail
