#pragma once
// Internal: checks shared by the tables of builds, tests, package managers
// and compilers (table_build_systems.cpp, table_python_tools.cpp,
// table_javascript_tools.cpp, table_compiled_languages.cpp).
//
// What runs in those tables is the project's own code (its Makefile,
// CMakeLists.txt, meson.build, tests, package.json scripts, build.rs,
// setup.py, conf.py): that is everyday work. What does not pass is anything
// that names other code to run (a plugin, a launcher, a wrapper, a
// compiler's helper, an init script, a configuration outside the
// workspace), a registry or an index, a package to install by name, an
// install into the system, or a place to write that the path rules do not
// judge.

#include <string_view>
#include <vector>

#include "option_table.hpp"

namespace toolguard::detail {

/// A path in the workspace. A glob (no expansion of a variable or command)
/// finds only names under its literal directory, which must be inside.
bool buildToolInside(const ShellWord& word, const CommandScene& scene);

/// buildToolInside of a text written out (no expansion).
bool buildToolTextInside(std::string_view text, const CommandScene& scene);

/// Every operand of `parse` is buildToolInside.
bool buildToolOperandsInside(const TableParse& parse, const CommandScene& scene);

/// Digits and dots, at least one: a version or a number.
bool buildToolDigits(std::string_view t);

/// Letters, digits and `_.+,-`: a value that is no path, list, expansion or command.
bool buildToolPlainValue(std::string_view t);

/// The non-empty parts of `text` between `separator`s.
std::vector<std::string_view> buildToolSplit(std::string_view text, char separator);

}  // namespace toolguard::detail
