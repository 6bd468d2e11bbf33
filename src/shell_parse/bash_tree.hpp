#pragma once
// Internal: a tree-sitter parse of bash text.

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <vector>

namespace toolguard::detail {

/// The syntax tree of one bash text. Owns the tree and a copy of the text
/// (nodes refer to byte offsets in it).
class BashTree {
 public:
  explicit BashTree(std::string_view text);
  ~BashTree();
  BashTree(const BashTree&) = delete;
  BashTree& operator=(const BashTree&) = delete;

  TSNode root() const { return ts_tree_root_node(tree_); }
  const std::string& text() const { return text_; }

  /// The source text of a node.
  std::string_view textOf(TSNode node) const;

 private:
  std::string text_;
  TSTree* tree_ = nullptr;
};

/// The node's type name ("command", "word", ...).
inline std::string_view typeOf(TSNode node) {
  return ts_node_type(node);
}

/// A child node with its field name ("" when it has none) and whether it is named.
struct FieldChild {
  TSNode node;
  std::string_view field;
  bool named;
};

/// All children of a node with their field names. Read with a tree cursor:
/// ts_node_field_name_for_child of runtime 0.20.7 loses the field names of
/// repeated fields (the third `redirect` of a command comes back as none).
std::vector<FieldChild> childrenOf(TSNode node);

}  // namespace toolguard::detail
