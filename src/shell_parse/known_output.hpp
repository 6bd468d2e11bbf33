#pragma once
// Internal: what a command prints, worked out without running it, for the
// few commands whose output depends on nothing but their words and input:
// echo, printf, cat and base64 -d.

#include <optional>
#include <string>
#include <vector>

#include "shell_env.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// The standard output of `cmd` when it is one of those commands, every word
/// and its input are known, and nothing redirects its output; nullopt
/// otherwise (the output is only known at run time).
std::optional<std::string> knownOutput(const SimpleCommand& cmd, const ShellEnv& env);

/// What `printf FORMAT ARGS...` prints; `words` starts at the format.
/// nullopt for what is not followed (%q, floating point, `*` widths).
std::optional<std::string> printfOutput(const std::vector<std::string>& words);

}  // namespace toolguard::detail
