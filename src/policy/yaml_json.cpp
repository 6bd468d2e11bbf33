// YAML to JSON with the YAML 1.2 core schema.
#include "yaml_json.hpp"

#include <charconv>

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
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") return node.Scalar();  // quoted
      return plainScalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& item : node) out.push_back(yamlToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& item : node) out[item.first.Scalar()] = yamlToJson(item.second);
      return out;
    }
  }
  return nullptr;
}

}  // namespace toolguard::detail
