// A message's top-level id replaced in its text (mcp/message_id_splice.hpp).
#include "mcp/message_id_splice.hpp"

#include "json/json_tokens.hpp"

namespace toolguard::mcp {
namespace {

using detail::isJsonSpace;

size_t afterSpace(std::string_view text, size_t at) {
  while (at < text.size() && isJsonSpace(text[at])) ++at;
  return at;
}

}  // namespace

std::optional<std::string> withTopLevelId(std::string_view line, std::string_view id_json) {
  size_t at = afterSpace(line, 0);
  if (at >= line.size() || line[at] != '{') return std::nullopt;
  constexpr size_t kNone = std::string_view::npos;
  size_t id_start = kNone;
  size_t id_end = kNone;
  at = afterSpace(line, at + 1);
  if (at < line.size() && line[at] == '}') return std::nullopt;  // {}: no id
  for (;;) {
    if (at >= line.size() || line[at] != '"') return std::nullopt;
    const size_t key_end = detail::jsonStringEnd(line, at);
    if (key_end < at + 2 || line[key_end - 1] != '"') return std::nullopt;  // not closed
    const std::string_view key = line.substr(at + 1, key_end - at - 2);
    if (key.find('\\') != std::string_view::npos) return std::nullopt;  // "\u0069d" is "id" too
    at = afterSpace(line, key_end);
    if (at >= line.size() || line[at] != ':') return std::nullopt;
    const size_t value_start = afterSpace(line, at + 1);
    const size_t value_end = detail::jsonValueEnd(line, value_start);
    if (value_end == value_start) return std::nullopt;
    if (key == "id") {
      if (id_start != kNone) return std::nullopt;  // twice: which one a reader takes varies
      id_start = value_start;
      id_end = value_end;
    }
    at = afterSpace(line, value_end);
    if (at < line.size() && line[at] == ',') {
      at = afterSpace(line, at + 1);
      continue;
    }
    if (at < line.size() && line[at] == '}') break;
    return std::nullopt;
  }
  if (afterSpace(line, at + 1) != line.size() || id_start == kNone) return std::nullopt;
  std::string out;
  out.reserve(line.size() - (id_end - id_start) + id_json.size());
  out.append(line.substr(0, id_start)).append(id_json).append(line.substr(id_end));
  return out;
}

}  // namespace toolguard::mcp
