#pragma once
// Internal: turns a bash syntax tree into simple commands.

#include <cstring>
#include <string>
#include <vector>

#include "bash_tree.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// Appends the simple commands of one tree to a program. Commands found
/// inside an unwrapped script inherit `prototype`'s placement, wrappers and
/// flags.
class ProgramBuilder {
 public:
  ProgramBuilder(const BashTree& tree, const std::string& home, ShellProgram& out,
                 const SimpleCommand& prototype);

  void build();

 private:
  using Redirects = std::vector<ShellRedirect>;
  void statement(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void children(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void pipeline(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void conditional(TSNode node, ShellPlacement placement, const Redirects& redirects);
  void pipedAfterHeredoc(TSNode node, ShellPlacement placement);
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
  void assignment(TSNode node, SimpleCommand& cmd, std::vector<TSNode>& subs);
  // The text of a here-document body for redirection `r` (see ShellRedirect::document).
  ShellWord hereDocument(TSNode body, const ShellRedirect& r) const;
  void substitutions(const std::vector<TSNode>& nodes, ShellPlacement placement);
  ShellWord word(TSNode node, std::vector<TSNode>& substitutions);
  void emit(SimpleCommand cmd, ShellPlacement placement, const Redirects& redirects,
            std::string text);

  const BashTree& tree_;
  const std::string& home_;
  ShellProgram& out_;
  const SimpleCommand& prototype_;
  // What follows `<<EOF` on its line (`| sh`, `&& ls`), run after the command.
  struct Pending {
    TSNode node;
    ShellPlacement placement;
    bool piped;
  };
  std::vector<Pending> after_heredoc_;
};

}  // namespace toolguard::detail
