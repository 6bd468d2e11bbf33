#pragma once
// Internal: where the tables of harmless options live. Each group of
// programs has its own file of tables (table_*.cpp); this index finds a
// program's or subcommand's table by name.

#include <span>
#include <string>
#include <string_view>

#include "option_table.hpp"
#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// Tools that list, read, search and compare files (table_file_readers.cpp).
std::span<const ProgramSpec> fileReaderSpecs();
/// Text filters, bytes and checksums, paths, printing words, the system
/// (table_text_and_system_tools.cpp).
std::span<const ProgramSpec> textAndSystemToolSpecs();
/// git and its subcommands (table_git.cpp).
std::span<const ProgramSpec> gitSpecs();
/// make, ninja, cmake, ctest, meson, sphinx-build (table_build_systems.cpp).
std::span<const ProgramSpec> buildSystemSpecs();
/// Python's tests, builds and package managers (table_python_tools.cpp).
std::span<const ProgramSpec> pythonToolSpecs();
/// JavaScript's package managers, test runners and bundlers (table_javascript_tools.cpp).
std::span<const ProgramSpec> javascriptToolSpecs();
/// go, cargo, rustc, gcc and clang (table_compiled_languages.cpp).
std::span<const ProgramSpec> compiledLanguageSpecs();
/// Gradle, Maven and javac (table_jvm_tools.cpp).
std::span<const ProgramSpec> jvmToolSpecs();
/// The version queries of runtimes: node, java, ruby, ... (table_runtime_versions.cpp).
std::span<const ProgramSpec> runtimeVersionSpecs();
/// Formatters and linters (table_linters.cpp).
std::span<const ProgramSpec> linterSpecs();
/// Linters of shell scripts, YAML, Dockerfiles, CI workflows and TOML (table_config_linters.cpp).
std::span<const ProgramSpec> configLinterSpecs();
/// File operations and shell builtins (table_file_tools.cpp).
std::span<const ProgramSpec> fileToolSpecs();
/// Programs that run another command: their own options (table_wrappers.cpp).
std::span<const ProgramSpec> wrapperSpecs();

/// Succeeds when a command that runs another one (timeout, env, uv run,
/// npx, ...) is known by its own words: a table reads them, up to the
/// command it runs. Shells, eval, sudo and the like, xargs and find are
/// judged by the rules that follow what they run, and pass here. Fails
/// naming what is not known.
Expected<void> checkWrapperKnown(const CommandScene& scene);

/// The spec for "grep", "git log", "git stash list", ...; nullptr when none.
const ProgramSpec* findProgramSpec(std::string_view command);

/// A spec's command with the first of each word's alternatives ("npm run|run-script" -> "npm run").
std::string canonicalCommand(std::string_view command);

}  // namespace toolguard::detail
