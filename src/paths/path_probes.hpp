#pragma once
// Internal: the concrete paths a tree or a glob stands for, so that every
// path rule judges one file at a time whatever the shape of the access.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/call_view.hpp"
#include "toolguard/path_access.hpp"

namespace toolguard::detail {

/// A concrete path a rule's glob names, with wildcards filled in
/// (`.ssh/id_*` gives `.ssh/id_x`, `~/.toolguard/**` gives HOME/.toolguard/x).
struct PathExample {
  std::string text;                     ///< absolute when anchored, else relative
  bool anchored = false;                ///< starts at `/` or `~`
  std::vector<std::string> components;  ///< text split at `/` (relative examples)
  bool literal_first = false;           ///< the first component has no wildcard (`.git`, `.env`)
  std::string first_glob;               ///< the first component as written (`id_rsa*`, `*.pem`)
};

/// The example of a path glob (see PathExample); `./` globs give none.
std::vector<PathExample> examplesOfGlob(std::string_view glob, const std::string& home);

/// The glob with each wildcard replaced by one ordinary name: `*`, `**` and
/// `?` by `x`, a bracket class by its first character. Braces are kept.
std::string representativeOfGlob(std::string_view glob);

/// The directory part of a glob before its first wildcard (`/w/src/*.c` gives
/// `/w/src`); the whole text when it has none.
std::string literalDirectory(std::string_view glob);

/// Every alternative of a glob's brace expressions (`*.{pem,key}` gives
/// `*.pem` and `*.key`), at most `limit`; a word without braces is itself.
std::vector<std::string> expandBraces(std::string_view glob, size_t limit = 64);

/// The concrete paths an access stands for, each a File access of the same
/// kind, text and route that every path rule judges on its own:
/// - a File: itself;
/// - a Tree: the directory itself; a file of a named place it lies in
///   (`grep -r x ~/.ssh` meets `.ssh/id_*` as `~/.ssh/id_x`); a named place
///   inside it (`/proc/x/environ` under `/`); and for a write (a recursive
///   delete or change), a named place directly inside it that exists
///   (`rm -rf .` with a `.toolguard` directory there);
/// - a Pattern: its representative, its literal directory as a Tree, and the
///   examples the pattern is aimed at: those it matches while it matches no
///   ordinary name (`.env*` and `*.pem` aim at secrets; `*` and `*.c` do not).
/// `examples` gives the examples of the policy's path globs; it is called only
/// for a Tree or a Pattern (a File needs none), so that a call that names
/// files never makes them.
using PathExamplesSource = std::function<const std::vector<PathExample>&()>;
std::vector<PathAccess> pathProbes(const PathAccess& access, const PathExamplesSource& examples,
                                   const CallView& view);

}  // namespace toolguard::detail
