// YAML to JSON with the YAML 1.2 core schema.
#include "yaml_json.hpp"

#include <charconv>

#include "policy/doc_node_yaml.hpp"

namespace toolguard::detail {
namespace {

nlohmann::json plainScalar(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    return nullptr;
  }
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (*begin == '+') ++begin;
  int64_t integer = 0;
  auto [ptr, ec] = std::from_chars(begin, end, integer);
  if (ec == std::errc() && ptr == end) return integer;
  double real = 0;
  auto [rptr, rec] = std::from_chars(begin, end, real);
  if (rec == std::errc() && rptr == end && text.find_first_of("0123456789") != std::string::npos &&
      text.find_first_of("xXpP") == std::string::npos) {
    return real;
  }
  return text;
}

}  // namespace

SourceLocation locationOf(const YAML::Node& node, const std::string& name) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return SourceLocation{name, 0, 0};
  return SourceLocation{name, mark.line + 1, mark.column + 1};
}

nlohmann::json yamlToJson(const YAML::Node& node) {
  return docToJson(docNodeFromYaml(node, "<yaml>"));
}

SourceLocation locationOf(const DocNode& node, const std::string& name) {
  return SourceLocation{name, static_cast<int>(node.line()), static_cast<int>(node.column())};
}

nlohmann::json docToJson(const DocNode& node) {
  switch (node.kind()) {
    case DocNode::Kind::Null:
      return nullptr;
    case DocNode::Kind::Scalar:
      if (node.quoted()) return node.Scalar();
      return plainScalar(node.Scalar());
    case DocNode::Kind::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const DocNode& item : node.items()) out.push_back(docToJson(item));
      return out;
    }
    case DocNode::Kind::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (std::size_t i = 0; i < node.size(); ++i) {
        out[node.key(i).Scalar()] = docToJson(node.value(i));
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace toolguard::detail
