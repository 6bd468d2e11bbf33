// Parsing bash with tree-sitter; one parser per thread.
#include "bash_tree.hpp"

#include <stdexcept>

extern "C" const TSLanguage* tree_sitter_bash(void);

namespace toolguard::detail {
namespace {

struct ParserHolder {
  ParserHolder() : parser(ts_parser_new()) {
    if (parser == nullptr || !ts_parser_set_language(parser, tree_sitter_bash())) {
      throw std::runtime_error("the bash grammar does not fit the tree-sitter runtime");
    }
  }
  ~ParserHolder() { ts_parser_delete(parser); }
  TSParser* parser;
};

TSParser* threadParser() {
  thread_local ParserHolder holder;
  return holder.parser;
}

}  // namespace

BashTree::BashTree(std::string_view text) : text_(text) {
  TSParser* parser = threadParser();
  ts_parser_reset(parser);
  tree_ =
      ts_parser_parse_string(parser, nullptr, text_.data(), static_cast<uint32_t>(text_.size()));
  if (tree_ == nullptr) throw std::runtime_error("bash parser gave no tree");
}

BashTree::~BashTree() {
  ts_tree_delete(tree_);
}

std::vector<FieldChild> childrenOf(TSNode node) {
  std::vector<FieldChild> out;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const char* field = ts_tree_cursor_current_field_name(&cursor);
      TSNode child = ts_tree_cursor_current_node(&cursor);
      out.push_back({child, field == nullptr ? std::string_view() : std::string_view(field),
                     ts_node_is_named(child)});
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

std::string_view BashTree::textOf(TSNode node) const {
  const uint32_t start = ts_node_start_byte(node);
  const uint32_t end = ts_node_end_byte(node);
  if (start > end || end > text_.size()) return {};
  return std::string_view(text_).substr(start, end - start);
}

}  // namespace toolguard::detail
