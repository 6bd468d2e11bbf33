#pragma once
// Internal: what a wrapper command (sudo, env, bash -c, eval, xargs, find
// -exec, ...) runs.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// One command a wrapper runs: either words (sudo rm -rf /) or a script to
/// parse again (bash -c '...', eval ..., env -S '...').
struct Unwrapped {
  std::string wrapper;
  std::vector<ShellWord> words;
  std::vector<std::pair<std::string, ShellWord>> assignments;  ///< env A=1 / sudo A=1
  std::optional<ShellWord> script;
  bool privileged = false;
  bool unknown_extra_arguments = false;
};

/// True for the shells whose `-c` scripts are parsed as bash and unwrapped
/// (bash, sh, zsh, dash, ksh, mksh, ash).
bool runsBashScripts(std::string_view name);

/// The commands `cmd` runs on its behalf; empty when it wraps nothing.
std::vector<Unwrapped> unwrap(const SimpleCommand& cmd);

}  // namespace toolguard::detail
