// JSON Pointers (RFC 6901) and URI-fragment percent-encoding (RFC 3986).
#include "schema/json_pointer.hpp"

namespace toolguard::schema {
namespace {

int percentHexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 3986: fragment = *( pchar / "/" / "?" ), pchar = unreserved / sub-delims / ":" / "@"
// (percent signs are always encoded, so a pointer round-trips).
bool allowedInFragment(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '-':
    case '.':
    case '_':
    case '~':
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=':
    case ':':
    case '@':
    case '/':
    case '?':
      return true;
    default:
      return false;
  }
}

// An array index token: "0" or digits without a leading zero, small enough for size_t.
std::optional<std::size_t> arrayIndex(const std::string& token) {
  if (token.empty() || token.size() > 18) return std::nullopt;
  if (token.size() > 1 && token[0] == '0') return std::nullopt;
  std::size_t value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value;
}

}  // namespace

void appendToken(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
}

std::string childPointer(std::string_view pointer, std::string_view token) {
  std::string out(pointer);
  appendToken(out, token);
  return out;
}

std::string childPointer(std::string_view pointer, std::size_t index) {
  std::string out(pointer);
  out += '/';
  out += std::to_string(index);
  return out;
}

std::optional<std::vector<std::string>> parsePointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/') return std::nullopt;
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
      continue;
    }
    if (pointer[i] == '~') {
      if (i + 1 >= pointer.size()) return std::nullopt;
      char next = pointer[++i];
      if (next == '0') {
        token += '~';
      } else if (next == '1') {
        token += '/';
      } else {
        return std::nullopt;
      }
      continue;
    }
    token += pointer[i];
  }
  return tokens;
}

const nlohmann::json* resolvePointer(const nlohmann::json& document,
                                     const std::vector<std::string>& tokens) {
  const nlohmann::json* at = &document;
  for (const std::string& token : tokens) {
    if (at->is_object()) {
      auto it = at->find(token);
      if (it == at->end()) return nullptr;
      at = &*it;
    } else if (at->is_array()) {
      std::optional<std::size_t> index = arrayIndex(token);
      if (!index || *index >= at->size()) return nullptr;
      at = &(*at)[*index];
    } else {
      return nullptr;
    }
  }
  return at;
}

std::optional<std::string> percentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    int high = percentHexValue(text[i + 1]);
    int low = percentHexValue(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

std::string fragmentOf(std::string_view pointer) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "#";
  for (char c : pointer) {
    auto byte = static_cast<unsigned char>(c);
    if (allowedInFragment(byte)) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

}  // namespace toolguard::schema
