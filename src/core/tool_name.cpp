// Tool names that imitate a known tool are judged as that tool, or refused.
#include "tool_name.hpp"

#include <algorithm>
#include <string_view>

#include "unicode_text.hpp"

namespace toolguard::detail {
std::unordered_map<std::string, std::string> toolsByLowercaseName(const ToolCatalog& tools) {
  std::unordered_map<std::string, std::string> out;
  for (const ToolInfo* tool : tools.all()) {
    out.emplace(asciiLowercase(tool->name), tool->name);  // the first of names equal but for case
  }
  return out;
}

std::optional<ToolNameImitation> imitatedTool(
    std::string_view name, const ToolCatalog& tools,
    const std::unordered_map<std::string, std::string>& by_lowercase_name) {
  if (tools.contains(name)) return std::nullopt;
  std::string folded;
  bool disguised = false;
  size_t offset = 0;
  // An ASCII name folds to itself (most names: no decoding needed).
  if (std::all_of(name.begin(), name.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    folded = name;
    offset = name.size();
  }
  while (offset < name.size()) {
    unsigned c = 0;
    const size_t length = decodeUtf8(name, offset, c);
    if (length == 0) return std::nullopt;  // not UTF-8: not a name we can compare
    offset += length;
    if (c < 0x80) {
      folded += static_cast<char>(c);
    } else if (c >= 0xFF01 && c <= 0xFF5E) {
      folded += static_cast<char>(c - 0xFF01 + 0x21);  // full-width ASCII
      disguised = true;
    } else if (c == 0x3000) {
      folded += ' ';  // ideographic space
      disguised = true;
    } else if (isInvisibleOrControl(c)) {
      disguised = true;  // zero-width, direction marks, joiners: nothing a person sees
    } else {
      return std::nullopt;  // another script: not an imitation we can read
    }
  }
  const size_t first = folded.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string::npos) return std::nullopt;
  folded = folded.substr(first, folded.find_last_not_of(" \t\r\n\f\v") - first + 1);
  if (folded != name && tools.contains(folded)) return ToolNameImitation{folded, disguised};
  auto found = by_lowercase_name.find(asciiLowercase(folded));
  if (found == by_lowercase_name.end()) return std::nullopt;
  return ToolNameImitation{found->second, disguised};
}

}  // namespace toolguard::detail
