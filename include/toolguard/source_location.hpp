#pragma once
// Where something was defined: a policy file position, or code.

#include <string>

namespace toolguard {

/// A position in a policy file (1-based line and column), or a name such as
/// "<builtin>" or "<code>" with line 0 for things not defined in a file.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  /// "file:line:column", or just "file" when there is no line.
  std::string toString() const;
};

/// The layer a policy came from, from least to most authoritative.
/// Managed settings cannot be loosened by any other layer; project settings
/// cannot loosen the others unless the user trusts the project.
enum class PolicyLayer { Builtin, User, Project, Explicit, Managed, Code };

/// The lowercase name of a layer ("builtin", "user", "project", "explicit", "managed", "code").
const char* toString(PolicyLayer layer);

}  // namespace toolguard
