#pragma once
// Internal: which shell variables a part of a program may assign, found
// without evaluating it (for branches, loops and function bodies, whose
// assignments may or may not happen).

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "bash_tree.hpp"
#include "shell_env.hpp"

namespace toolguard::detail {

/// The variables a statement may change when it runs.
struct AssignedNames {
  std::set<std::string, std::less<>> names;
  std::set<std::string, std::less<>> attributes;  ///< declared with attributes (-i, -l, -r, ...)
  bool everything = false;  ///< eval, source, a trap, a function call, a run-time command name
  bool positional = false;  ///< set, shift
  bool breaks = false;      ///< break or continue inside
  bool runs_code = false;   ///< eval, source or `.`: code not read here may assign anything

  /// True when nothing at all may change (forgetIn does nothing, and no
  /// part of the statement changes anything either).
  bool assignsNothing() const {
    return names.empty() && attributes.empty() && !everything && !positional && !breaks &&
           !runs_code;
  }

  /// Makes the names unknown in `env` (all of it when `everything`).
  void forgetIn(ShellEnv& env) const;
};

/// What `node` and everything below it may assign. `functions` are the
/// names of the functions the program defines: calling one runs its body.
AssignedNames assignedNames(TSNode node, const BashTree& tree,
                            const std::set<std::string, std::less<>>& functions);

/// Quote removal for a word that holds no expansion (`r''ead` is `read`);
/// nullopt when it holds `$` or a backquote.
std::optional<std::string> literalWord(std::string_view text);

/// The names used in an arithmetic expression (`i++`, `x = y + 1`).
std::set<std::string, std::less<>> arithmeticNames(std::string_view text);

/// False only when a program text cannot assign anything: no character
/// that starts an assignment, expansion, quote or function, and no word of
/// a builtin that assigns. Saves the walk of `assignedNames` for most
/// command lines; assignedNames(root).assignsNothing() holds whenever this
/// is false (a unit test checks it over the shell corpus).
bool mayAssignAnything(std::string_view text);

/// Builtins that change variables other than through `NAME=value`.
bool changesNamedVariables(std::string_view name);

}  // namespace toolguard::detail
