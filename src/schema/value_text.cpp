// Renderings of JSON values for violation messages.
#include "schema/value_text.hpp"

#include <cstdio>

namespace toolguard::schema {
namespace {

void appendEscaped(std::string& out, char c) {
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\r':
      out += "\\r";
      return;
    default:
      break;
  }
  auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte == 0x7F) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\u%04X", byte);
    out += buffer;
  } else {
    out += c;
  }
}

// Renders into `out` while it is shorter than `limit`; "..." marks what is left out.
void render(const nlohmann::json& value, std::string& out, std::size_t limit, int depth) {
  if (out.size() >= limit) {
    out += "...";
    return;
  }
  switch (value.type()) {
    case nlohmann::json::value_t::string: {
      const std::size_t room = limit - out.size();
      out += quoteText(value.get_ref<const std::string&>(), room < 16 ? 16 : room);
      return;
    }
    case nlohmann::json::value_t::array: {
      if (value.empty()) {
        out += "[]";
        return;
      }
      if (depth <= 0) {
        out += "[...]";
        return;
      }
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!first) out += ", ";
        first = false;
        if (out.size() >= limit) {
          out += "...";
          break;
        }
        render(item, out, limit, depth - 1);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::object: {
      if (value.empty()) {
        out += "{}";
        return;
      }
      if (depth <= 0) {
        out += "{...}";
        return;
      }
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ", ";
        first = false;
        if (out.size() >= limit) {
          out += "...";
          break;
        }
        out += quoteText(it.key(), 32);
        out += ": ";
        render(it.value(), out, limit, depth - 1);
      }
      out += '}';
      return;
    }
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded:
      out += "<not JSON>";
      return;
    default:
      out += value.dump();
  }
}

}  // namespace

std::string quoteText(std::string_view text, std::size_t max_bytes) {
  bool cut = false;
  if (text.size() > max_bytes) {
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
    cut = true;
  }
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      appendEscaped(out, c);
    }
  }
  if (cut) out += "...";
  out += '"';
  return out;
}

std::string renderValue(const nlohmann::json& value, std::size_t budget) {
  std::string out;
  render(value, out, budget, 3);
  return out;
}

std::string typeName(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return "boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "integer";
    case nlohmann::json::value_t::number_float:
      return "number";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::object:
      return "object";
    default:
      return "not JSON";
  }
}

std::string escapeControls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) appendEscaped(out, c);
  return out;
}

}  // namespace toolguard::schema
