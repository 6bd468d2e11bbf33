#pragma once
// A path a call reads or writes, whatever the route: a file tool's argument, an
// MCP tool's path argument, a shell redirection or a command's operand. Every
// route's paths meet the same path rules (see docs/paths.md).

#include <string>

#include "toolguard/paths.hpp"

namespace toolguard {

/// Whether an access only reads, or changes the file system: a write, a new
/// file, a deletion, a move away, a change of mode count as writes.
enum class PathAccessKind { Read, Write };

/// What an access names.
enum class PathShape {
  File,     ///< one file or directory
  Tree,     ///< a directory and everything below it (`grep -r DIR`, `rm -r DIR`)
  Pattern,  ///< the files a glob matches (a search tool's `glob`, a shell word with `*`)
};

/// One path a call touches.
struct PathAccess {
  PathAccessKind kind = PathAccessKind::Read;
  PathShape shape = PathShape::File;
  /// The path as the call wrote it (after shell quote removal).
  std::string text;
  /// Made absolute against the directory the access happens in, in every
  /// form (see ResolvedPath). For a Pattern: the glob made absolute, not
  /// resolved. When `known_location` is false: the lexical form only.
  ResolvedPath path;
  /// How the call reaches it, for reasons: "args.file_path", "> (redirection)",
  /// "tee", "cp (destination)", "grep -r".
  std::string route;
  /// False when a directory on the way is known only at run time (`$DIR/x`,
  /// after `cd "$X"`): then only the names in the path can be judged.
  bool known_location = true;
};

/// "reads" or "writes".
std::string_view toString(PathAccessKind kind);

}  // namespace toolguard
