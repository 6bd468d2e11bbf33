#pragma once
// Internal: files whose text build and test tools run as shell commands
// (Makefile recipes, package.json scripts, shell scripts, CI steps, git
// hooks), and the commands that run them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// The kinds of files a build or test tool runs code from.
enum class BuildFile {
  None,
  Makefile,     ///< Makefile, makefile, GNUmakefile, Makefile.*, *.mk, *.mak: recipes, $(shell ...)
  PackageJson,  ///< package.json: "scripts"
  ShellScript,  ///< *.sh, *.bash, *.zsh, and any file starting with a shell's #!
  GitHook,      ///< .git/hooks/*
  GitHubWorkflow,  ///< .github/workflows/*.yml: steps' `run`
  GitLabCi,        ///< .gitlab-ci.yml: script, before_script, after_script
  Justfile,        ///< justfile, Justfile: recipe lines
  PythonTests,     ///< conftest.py, pytest.ini, setup.py, pyproject.toml, tox.ini, noxfile.py
  CargoBuild,      ///< build.rs, Cargo.toml, .cargo/config.toml
  CMake,           ///< CMakeLists.txt, *.cmake
  Notebook,        ///< *.ipynb: code cells' `!cmd` lines and `%%bash` cells
  Requirements,    ///< requirements*.txt, constraints*.txt, *.in: what pip installs
};

/// The kind of a file by its path; `content` (may be empty) tells a script by its #!.
BuildFile buildFileKind(std::string_view path, std::string_view content = {});

/// "the Makefile", "package.json's scripts", ... for reasons.
std::string describeBuildFile(BuildFile kind);

/// The shell command lines a tool would run from the text of such a file (or
/// of a fragment of it: an edit's new text). Python, Rust and CMake files hold
/// no shell text and give none. A Makefile's `$(shell CMD)` is `$(CMD)`.
/// A notebook's text is its JSON, or one cell's source (a notebook tool's
/// `new_source`).
std::vector<std::string> buildFileScripts(BuildFile kind, std::string_view content);

/// What buildFileScripts gives for a part of the file that changes how the
/// tool runs commands in a way the shell rules cannot judge (a Makefile's
/// `include` or `SHELL`, a justfile's `set shell`, a dependency fetched from
/// a path or a URL): this prefix, then what it is. Never a shell command.
inline constexpr std::string_view kUnjudgedBuildText = "\x01";

/// The same for a part that only links commands already in the file (a
/// Makefile rule naming which targets run which): unjudged when the file
/// held text before the write, nothing in a new file (whose commands are
/// all judged).
inline constexpr std::string_view kUnjudgedLinkText = "\x02";

/// A command the file names (package.json's `"pretest": "..."`): this
/// prefix, the name, the prefix again, then the command. The name takes part
/// in telling what a write adds (a script renamed to run on `npm test` is
/// added) and scriptCommand gives the command to judge.
inline constexpr std::string_view kNamedScript = "\x03";

/// The shell command of one of buildFileScripts' results (a named script's
/// command without its name).
std::string_view scriptCommand(std::string_view script);

/// The reason an unjudged part gives, or nullopt for a shell command.
std::optional<std::string> unjudgedBuildText(std::string_view script);

/// True for the kinds whose shell text buildFileScripts reads (a Makefile,
/// package.json, a script, ...); false for those that run code toolguard
/// does not read (Python, Rust and CMake build files).
bool buildFileHasShellText(BuildFile kind);

/// True when `command` runs the code of files of this kind: make for a
/// Makefile, npm/yarn/pnpm/bun for package.json, pytest for conftest.py,
/// git for its hooks, bash/sh/source/`./FILE` for that very script (`path`,
/// absolute, against the command's `script` operand made absolute the same way).
bool runsBuildFile(const SimpleCommand& command, BuildFile kind);

}  // namespace toolguard::detail
