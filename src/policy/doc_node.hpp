#pragma once
// Internal: a YAML document as the policy parser reads it, with every node's
// line and column. Policy files are read into it with yaml-cpp; the built-in
// profiles are read into it at build time and stored in the library in the
// compact form of encodeDocNode (tools/embed_profiles.cpp), so loading them
// parses no YAML (yaml-cpp needs about 1,500 instructions a byte).
//
// Method names follow yaml-cpp's Node, whose place it takes in the parser.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toolguard::detail {

/// One node of a YAML document: null, a scalar, a sequence or a mapping.
class DocNode {
 public:
  enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };

  DocNode() = default;
  /// A scalar (quoted: written in quotes, so never read as a number or bool).
  static DocNode scalar(std::string text, bool quoted, std::uint32_t line, std::uint32_t column);
  /// An empty sequence or mapping, or a null, at a place.
  static DocNode of(Kind kind, std::uint32_t line, std::uint32_t column);

  Kind kind() const { return kind_; }
  bool IsNull() const { return kind_ == Kind::Null; }
  bool IsScalar() const { return kind_ == Kind::Scalar; }
  bool IsSequence() const { return kind_ == Kind::Sequence; }
  bool IsMap() const { return kind_ == Kind::Map; }
  /// The text of a scalar ("" for any other node).
  const std::string& Scalar() const { return text_; }
  /// True for a scalar written in quotes.
  bool quoted() const { return quoted_; }
  /// 1-based line and column of the node in its file (0: not known).
  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return column_; }

  /// Items of a sequence, or entries of a mapping.
  std::size_t size() const { return kind_ == Kind::Map ? children_.size() / 2 : children_.size(); }
  /// Item `i` of a sequence.
  const DocNode& operator[](std::size_t i) const { return children_[i]; }
  /// The items of a sequence (empty for any other node).
  const std::vector<DocNode>& items() const;
  /// Key and value of entry `i` of a mapping.
  const DocNode& key(std::size_t i) const { return children_[2 * i]; }
  const DocNode& value(std::size_t i) const { return children_[2 * i + 1]; }

  /// Adds an item to a sequence, or (two calls, key then value) an entry to a mapping.
  void add(DocNode child) { children_.push_back(std::move(child)); }
  /// Makes room for `n` children (items, or keys and values) before add().
  void reserve(std::size_t n) { children_.reserve(n); }

  friend bool operator==(const DocNode&, const DocNode&) = default;

 private:
  Kind kind_ = Kind::Null;
  bool quoted_ = false;
  std::uint32_t line_ = 0;
  std::uint32_t column_ = 0;
  std::string text_;
  std::vector<DocNode> children_;  // a mapping's keys and values, alternating
};

/// The compact form of a tree (kind, place, text, children; numbers as varints).
std::string encodeDocNode(const DocNode& node);

/// The tree of encodeDocNode's output; throws std::runtime_error when the
/// bytes are not such output.
DocNode decodeDocNode(std::string_view bytes);

}  // namespace toolguard::detail
