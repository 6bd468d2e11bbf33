// The document tree of the policy parser, and its compact form.
#include "policy/doc_node.hpp"

#include <stdexcept>

namespace toolguard::detail {
namespace {

void putNumber(std::string& out, std::uint64_t n) {
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
}

class TreeReader {
 public:
  explicit TreeReader(std::string_view bytes) : bytes_(bytes) {}

  DocNode node(int depth) {
    if (depth > 256) fail();
    const std::uint64_t head = number();
    const auto kind = static_cast<DocNode::Kind>(head >> 1);
    if (kind > DocNode::Kind::Map) fail();
    const auto line = static_cast<std::uint32_t>(number());
    const auto column = static_cast<std::uint32_t>(number());
    if (kind == DocNode::Kind::Scalar) {
      const std::uint64_t length = number();
      if (length > bytes_.size() - at_) fail();
      DocNode out =
          DocNode::scalar(std::string(bytes_.substr(at_, length)), (head & 1) != 0, line, column);
      at_ += length;
      return out;
    }
    DocNode out = DocNode::of(kind, line, column);
    if (kind == DocNode::Kind::Null) return out;
    std::uint64_t children = number();
    if (kind == DocNode::Kind::Map) children *= 2;
    if (children > bytes_.size() - at_) fail();  // each child takes at least a byte
    out.reserve(children);
    for (std::uint64_t i = 0; i < children; ++i) out.add(node(depth + 1));
    return out;
  }

  bool atEnd() const { return at_ == bytes_.size(); }

 private:
  std::uint64_t number() {
    std::uint64_t n = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= bytes_.size()) fail();
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      n |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return n;
    }
    fail();
  }
  [[noreturn]] static void fail() {
    throw std::runtime_error("a built-in document tree is damaged (rebuild toolguard)");
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
};

void encodeNode(const DocNode& node, std::string& out) {
  putNumber(out, (static_cast<std::uint64_t>(node.kind()) << 1) | (node.quoted() ? 1 : 0));
  putNumber(out, node.line());
  putNumber(out, node.column());
  switch (node.kind()) {
    case DocNode::Kind::Null:
      return;
    case DocNode::Kind::Scalar:
      putNumber(out, node.Scalar().size());
      out += node.Scalar();
      return;
    case DocNode::Kind::Sequence:
      putNumber(out, node.size());
      for (const DocNode& item : node.items()) encodeNode(item, out);
      return;
    case DocNode::Kind::Map:
      putNumber(out, node.size());
      for (std::size_t i = 0; i < node.size(); ++i) {
        encodeNode(node.key(i), out);
        encodeNode(node.value(i), out);
      }
      return;
  }
}

}  // namespace

DocNode DocNode::scalar(std::string text, bool quoted, std::uint32_t line, std::uint32_t column) {
  DocNode out = of(Kind::Scalar, line, column);
  out.text_ = std::move(text);
  out.quoted_ = quoted;
  return out;
}

DocNode DocNode::of(Kind kind, std::uint32_t line, std::uint32_t column) {
  DocNode out;
  out.kind_ = kind;
  out.line_ = line;
  out.column_ = column;
  return out;
}

const std::vector<DocNode>& DocNode::items() const {
  static const std::vector<DocNode> kNone;
  return kind_ == Kind::Sequence ? children_ : kNone;
}

std::string encodeDocNode(const DocNode& node) {
  std::string out;
  encodeNode(node, out);
  return out;
}

DocNode decodeDocNode(std::string_view bytes) {
  TreeReader reader(bytes);
  DocNode out = reader.node(0);
  if (!reader.atEnd()) throw std::runtime_error("a built-in document tree has trailing bytes");
  return out;
}

}  // namespace toolguard::detail
