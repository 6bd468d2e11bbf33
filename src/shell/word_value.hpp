#pragma once
// Internal: evaluating word nodes of the bash tree.

#include <string>
#include <vector>

#include "bash_tree.hpp"
#include "toolguard/shell.hpp"

namespace toolguard::detail {

/// Appends to `out` every command or process substitution below `node`
/// (not those nested inside another substitution: they are found when that
/// substitution's own commands are read).
void collectSubstitutions(TSNode node, std::vector<TSNode>& out);

/// Turns word nodes into ShellWords; substitutions met on the way are
/// appended to `substitutions` so their commands can be judged too.
class WordEvaluator {
 public:
  WordEvaluator(const BashTree& tree, const std::string& home, std::vector<TSNode>& substitutions);

  ShellWord evaluate(TSNode node);

 private:
  void append(TSNode node, ShellWord& word, bool at_word_start);
  void appendParts(TSNode node, ShellWord& word, bool quoted, uint32_t start, uint32_t end);
  void appendLiteral(uint32_t start, uint32_t end, ShellWord& word, bool quoted,
                     bool at_word_start);
  void appendUnquoted(std::string_view text, ShellWord& word, bool at_word_start);
  void expandAssignmentTildes(std::string& text, size_t from) const;

  const BashTree& tree_;
  const std::string& home_;
  std::vector<TSNode>& substitutions_;
};

}  // namespace toolguard::detail
