#pragma once
// Internal: evaluating word nodes of the bash tree with what the program's
// variables are known to hold.

#include <optional>
#include <string>
#include <vector>

#include "bash_tree.hpp"
#include "shell_env.hpp"
#include "toolguard/shell.hpp"
#include "word_fields.hpp"

namespace toolguard::detail {

/// Appends to `out` every command or process substitution below `node`
/// (not those nested inside another substitution: they are found when that
/// substitution's own commands are read).
void collectSubstitutions(TSNode node, std::vector<TSNode>& out);

/// Runs a command substitution's commands into the program and gives its
/// output when that is known before it runs (the program builder).
class SubstitutionRunner {
 public:
  virtual ~SubstitutionRunner() = default;
  /// The output with trailing newlines removed, as `$(...)` gives it.
  virtual std::optional<std::string> run(TSNode substitution) = 0;
  /// A known value is about to run as code nobody can judge here (an
  /// arithmetic expression evaluating `X='a[$(cmd)]'`).
  virtual void valueRunsAsCode(std::string_view what) = 0;
};

/// Turns word nodes into ShellWords, following the variables of `env`;
/// command substitutions go to `runner`, other substitutions met on the
/// way are appended to `substitutions` so their commands can be judged too.
class WordEvaluator {
 public:
  /// `brace_budget` is how many words brace expansion may still make in
  /// this program; a larger expansion is dynamic.
  WordEvaluator(const BashTree& tree, ShellEnv& env, SubstitutionRunner& runner,
                std::vector<TSNode>& substitutions, size_t& brace_budget);

  /// The words a command word becomes: brace expansion, tilde expansion,
  /// field splitting (none, one or several words). `literal_prefix` is
  /// unquoted text of the same word that the tree left outside `node`.
  void fields(TSNode node, std::vector<ShellWord>& out, std::string_view literal_prefix = {});
  /// One word with no splitting (a redirection's target: splitting into
  /// other than one word makes it dynamic).
  ShellWord single(TSNode node);
  /// A here-string's word: no splitting, no globs, `~` only at the start.
  ShellWord hereString(TSNode node);
  /// An assignment's value: no splitting, no globs; `~` after `=` and `:`.
  ShellWord assignmentValue(TSNode node);

 private:
  MarkedText walk(TSNode node);
  void append(TSNode node, MarkedText& m, bool quoted);
  void appendParts(TSNode node, MarkedText& m, bool quoted, uint32_t start, uint32_t end);
  void appendSource(std::string_view text, MarkedText& m, bool quoted);
  void appendUnknown(TSNode node, MarkedText& m);
  void expansion(TSNode node, MarkedText& m, bool quoted);
  void appendPositional(const std::vector<std::string>& values, bool joined, MarkedText& m,
                        bool quoted);

  const BashTree& tree_;
  ShellEnv& env_;
  SubstitutionRunner& runner_;
  std::vector<TSNode>& substitutions_;
  size_t& brace_budget_;
};

/// What `$((...))`, `((...))` and `let` do to the names they use: each may
/// be assigned; a name holding something other than a number makes the
/// environment opaque (its value is evaluated as an expression again).
/// What valueRunsAsCode is told when forgetArithmeticNames finds code.
inline constexpr std::string_view kArithmeticValue = "a variable's value evaluated as arithmetic";

/// True when a known value holds an expansion that then runs as code.
bool forgetArithmeticNames(std::string_view text, ShellEnv& env);

}  // namespace toolguard::detail
