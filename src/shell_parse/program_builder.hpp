#pragma once
// Internal: turns a bash syntax tree into simple commands, following the
// values of variables through the program as bash would.

#include <cstring>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "assigned_names.hpp"
#include "bash_tree.hpp"
#include "shell_env.hpp"
#include "toolguard/shell.hpp"
#include "word_value.hpp"

namespace toolguard::detail {

/// True when `type` (a node type, a command name) is one of `types`; shared
/// by the builder's files (program_builder*.cpp).
inline bool isOneOf(std::string_view type, std::initializer_list<std::string_view> types) {
  for (std::string_view t : types) {
    if (type == t) return true;
  }
  return false;
}

/// Limits one parse shares between the scripts it unwraps, so that no input
/// makes the data flow grow without bound. Beyond them the program is
/// too_deep (never allowed).
struct BuildBudget {
  size_t brace_words = 1024;  ///< words brace expansion may make
  size_t loop_items = 64;     ///< iterations of for loops written out
  size_t calls = 64;          ///< function bodies written out for a call
  size_t depth = 0;           ///< nesting of substitutions and calls now
};

/// Appends the simple commands of one tree to a program, and to `envs` the
/// environment each ran in. Commands found inside an unwrapped script
/// inherit `prototype`'s placement, wrappers and flags.
class ProgramBuilder : private SubstitutionRunner {
 public:
  ProgramBuilder(const BashTree& tree, ShellProgram& out, std::vector<ShellEnv>& envs,
                 const SimpleCommand& prototype, ShellEnv env, BuildBudget& budget);

  void build();

  /// The shell reads this script from its standard input, which the
  /// script's commands may read too: any line may be taken as data rather
  /// than run, so what a line assigns is not known after it.
  void readsItsScriptFromItsInput() { script_is_input_ = true; }

 private:
  using Redirects = std::vector<ShellRedirect>;

  std::optional<std::string> run(TSNode substitution) override;
  void valueRunsAsCode(std::string_view what) override;
  // An arithmetic expression: what it may assign, and code a known value runs.
  void arithmetic(std::string_view text);

  void statement(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void children(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void list(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void pipeline(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void stages(const std::vector<TSNode>& nodes, size_t offset, ShellPlacement placement,
              const Redirects& redirects, std::optional<std::string> carried);
  void ifStatement(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void loop(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void forStatement(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void caseStatement(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void functionDefinition(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void drainAfterHeredoc();
  // Reads a redirected statement's body: in a list or pipeline only the last
  // command gets the statement's own redirections (`with_own`).
  void withTailRedirects(TSNode node, ShellPlacement placement,
                         const std::vector<ShellRedirect>& outer,
                         const std::vector<ShellRedirect>& with_own);
  void redirectedStatement(TSNode node, ShellPlacement placement, Redirects redirects);
  void command(TSNode node, ShellPlacement placement, Redirects redirects);
  void assignmentsOnly(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void builtinLike(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void redirect(TSNode node, Redirects& redirects, std::vector<TSNode>& subs,
                ShellPlacement placement);
  void assignment(TSNode node, SimpleCommand& cmd, std::vector<TSNode>& subs, bool apply);
  // The text of a here-document body for redirection `r` (see ShellRedirect::document).
  ShellWord hereDocument(TSNode body, const ShellRedirect& r) const;
  void substitutions(const std::vector<TSNode>& nodes, ShellPlacement placement);
  WordEvaluator evaluator(std::vector<TSNode>& substitutions);
  void emit(SimpleCommand cmd, ShellPlacement placement, const Redirects& redirects,
            std::string text);
  // What a command does to the variables after it runs.
  void effects(const SimpleCommand& cmd, ShellPlacement placement, const Redirects& redirects);
  void declarationEffects(const SimpleCommand& cmd, const std::vector<size_t>& assigned_words,
                          const std::vector<size_t>& appended_words);
  void callFunction(const SimpleCommand& cmd, TSNode body, ShellPlacement placement,
                    const Redirects& redirects);
  // Walks `node` in a region bash may run any number of times, or not at
  // all: what it may assign is unknown on entry and after it.
  AssignedNames regionNames(TSNode node) const;
  bool enter();  // false (and too_deep) past the nesting limit
  void leave() { --budget_.depth; }

  const BashTree& tree_;
  ShellProgram& out_;
  std::vector<ShellEnv>& envs_;
  const SimpleCommand& prototype_;
  ShellEnv env_;
  BuildBudget& budget_;
  // Functions defined so far (their bodies), and every name this tree defines.
  std::map<std::string, TSNode, std::less<>> functions_;
  std::set<std::string, std::less<>> function_names_;
  // Where substitutions met while reading words run.
  ShellPlacement word_placement_;
  // The known output of the stage before, for the command that reads it.
  std::optional<std::string> direct_input_;
  // The whole program assigns no variable, positional parameter or
  // attribute and runs no code it does not show: no part of it does.
  bool assigns_nothing_ = false;
  // How many function bodies of this tree are being read (`local` works
  // only inside one).
  int function_depth_ = 0;
  bool script_is_input_ = false;
  // The brace budget of a shell without brace expansion: always spent.
  size_t no_brace_words_ = 0;
  // Unquoted text of the next command's name that the tree left outside it
  // (the `{` of `{r,}m` in a parse error).
  std::string name_prefix_;
  // The known output of the last command or pipeline read.
  std::optional<std::string> last_output_;
  // What follows `<<EOF` on its line (`| sh`, `&& ls`), run after the command.
  struct Pending {
    TSNode node;
    ShellPlacement placement;
    bool piped;
    std::optional<std::string> output;  // of the command with the here-document
  };
  std::vector<Pending> after_heredoc_;
};

}  // namespace toolguard::detail
