#pragma once
// Internal: the shell programs a thread parsed last, so that a long-lived
// process (the service, `check --batch`, the MCP proxy) that meets the same
// command line again does not parse it again.

#include <memory>
#include <string_view>

#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// What parseShellProgram(script, options) returns, shared and immutable. A
/// program is a pure function of the script, the home directory and the
/// unwrap depth (nothing in parsing reads the environment, the file system or
/// a clock), so one parsed before for the same three is the same program.
/// This thread keeps its most recently used parses (64 at most, 256 KiB in
/// all) of scripts up to 4 KiB whose programs take under 16 KiB; others are
/// parsed every time.
std::shared_ptr<const ShellProgram> parsedShellProgram(std::string_view script,
                                                       const ShellParseOptions& options);

}  // namespace toolguard::detail
