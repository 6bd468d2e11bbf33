#pragma once
// Internal: the paths a simple command reads and writes, read off its words
// the way each tool parses them (before any path is resolved).

#include <string>
#include <vector>

#include "toolguard/path_access.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// One path word of a command and what the command does with it.
struct CommandPath {
  ShellWord word;
  PathAccessKind kind = PathAccessKind::Read;
  /// File or Tree as the tool treats the word; Pattern for a search tool's
  /// file glob (`rg -g GLOB`, `grep --include=GLOB`), whose text is then the
  /// glob placed under the directory searched (`DIR/**/GLOB`).
  PathShape shape = PathShape::File;
  std::string route;  ///< "cat", "> (redirection)", "cp (destination)", ...
};

/// Every path the command reads or writes: its redirections, and the operands
/// and option values of the tools that read files (cat, head, grep, diff,
/// source, curl -d @FILE, ...), list them (ls, find, tree), or change them
/// (tee, cp, mv, rm, touch, mkdir, sed -i, dd of=, chmod, ...). `-` (standard
/// input or output) and words of tools it does not know are left out.
std::vector<CommandPath> commandPaths(const SimpleCommand& command);

/// The same, read afresh each time (commandPaths reuses the last few results).
std::vector<CommandPath> readCommandPaths(const SimpleCommand& command);

/// The start points of a `find` command: the words before its expression
/// ("." when there are none).
std::vector<ShellWord> findStarts(const SimpleCommand& find);

/// The file-name globs of a `find` command's -name, -iname, -path and
/// -ipath tests (empty when it has none).
std::vector<ShellWord> findNameGlobs(const SimpleCommand& find);

}  // namespace toolguard::detail
