#pragma once
// Internal: the closed world of variables. An environment variable reaches
// every program a command starts and many of them read it for options,
// configuration, code or where to connect; a variable is harmless only when
// it is on the lists here. The same holds for printing one: only variables
// known to hold no credential may be printed.

#include <string_view>
#include <vector>

namespace toolguard::detail {

/// True when giving `name` this value in a program's environment (`NAME=value
/// cmd`, `export NAME=value`, `env NAME=value`) cannot change what runs,
/// where it reads configuration or code from, or where it connects.
/// `has_value` is false for `export NAME` (the value it already has).
bool environmentVariableIsHarmless(std::string_view name, std::string_view value, bool has_value);

/// True when `NAME=value` as a plain shell variable (not exported) cannot
/// change what runs: not a variable bash itself acts on (PATH, IFS, BASH_ENV,
/// PS4, PROMPT_COMMAND, HOME, ...), and not one the environment of the
/// process judging the call already has (then it is exported, and must be
/// harmless by environmentVariableIsHarmless). A hook runs as the agent's
/// child, so that is the agent's environment.
bool shellVariableIsPlain(std::string_view name);

/// False only for variables known to hold no credential (HOME, PATH, USER,
/// PWD, LANG, ...) and for the script's own lower-case names that neither
/// name a credential nor are in the environment: anything else may, and
/// printing it is a secret read.
bool variableMayHoldSecret(std::string_view name);

/// The words of a variable's value split at spaces, as a program splits a
/// flags variable (`CFLAGS`, `MAKEFLAGS`, `PYTEST_ADDOPTS`).
std::vector<std::string_view> spaceSeparatedWords(std::string_view value);

/// True for the `set -o NAME` options that only change errors and tracing.
bool oneOfSetOptions(std::string_view name);

}  // namespace toolguard::detail
