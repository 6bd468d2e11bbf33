// YAML text into the policy parser's DocNode tree.
#include "policy/doc_node_yaml.hpp"

#include "toolguard/policy_error.hpp"

namespace toolguard::detail {
namespace {

class Converter {
 public:
  explicit Converter(const std::string& name) : name_(name) {}

  DocNode convert(const YAML::Node& node) {
    const YAML::Mark mark = node.Mark();
    const auto line = static_cast<std::uint32_t>(mark.is_null() ? 0 : mark.line + 1);
    const auto column = static_cast<std::uint32_t>(mark.is_null() ? 0 : mark.column + 1);
    if (++count_ > kMaxDocNodes) {
      throw PolicyError(SourceLocation{name_, static_cast<int>(line), static_cast<int>(column)},
                        "the document has more than " + std::to_string(kMaxDocNodes) +
                            " nodes once its aliases are expanded");
    }
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return DocNode::of(DocNode::Kind::Null, line, column);
      case YAML::NodeType::Scalar:
        return DocNode::scalar(node.Scalar(), node.Tag() == "!", line, column);
      case YAML::NodeType::Sequence: {
        DocNode out = DocNode::of(DocNode::Kind::Sequence, line, column);
        for (const auto& item : node) out.add(convert(item));
        return out;
      }
      case YAML::NodeType::Map: {
        DocNode out = DocNode::of(DocNode::Kind::Map, line, column);
        for (const auto& item : node) {
          out.add(convert(item.first));
          out.add(convert(item.second));
        }
        return out;
      }
    }
    return DocNode::of(DocNode::Kind::Null, line, column);
  }

 private:
  const std::string& name_;
  std::size_t count_ = 0;
};

}  // namespace

DocNode docNodeFromYaml(const YAML::Node& node, const std::string& name) {
  return Converter(name).convert(node);
}

DocNode parseWithYamlCpp(std::string_view text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    SourceLocation where{name, e.mark.is_null() ? 0 : e.mark.line + 1,
                         e.mark.is_null() ? 0 : e.mark.column + 1};
    throw PolicyError(where, "invalid YAML: " + e.msg);
  }
  return docNodeFromYaml(root, name);
}

}  // namespace toolguard::detail
