// nlohmann::json's compact dump(), without its stream machinery.
#include "compact_dump.hpp"

#include <array>
#include <charconv>

namespace toolguard::detail {
namespace {

// Each byte's kind in a JSON string: written as it is, escaped, or outside
// ASCII.
enum ByteKind : unsigned char { kPlain, kEscaped, kNonAscii };
constexpr std::array<unsigned char, 256> kByteKinds = [] {
  std::array<unsigned char, 256> kinds{};
  for (int c = 0; c < 0x20; ++c) kinds[c] = kEscaped;
  kinds['"'] = kinds['\\'] = kEscaped;
  for (int c = 0x80; c < 0x100; ++c) kinds[c] = kNonAscii;
  return kinds;
}();

// A string as dump() writes it; one with a byte outside ASCII is left to
// nlohmann, which checks its UTF-8 (and throws for a bad one, or replaces).
void appendString(std::string& out, const std::string& text, BadUtf8 bad_utf8) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t first = 0;  // the first byte that is not plain
  while (first < text.size() && kByteKinds[bytes[first]] == kPlain) ++first;
  if (first == text.size()) {  // the usual case: nothing to escape
    out += '"';
    out += text;
    out += '"';
    return;
  }
  for (size_t i = first; i < text.size(); ++i) {
    if (kByteKinds[bytes[i]] == kNonAscii) {
      out += nlohmann::json(text).dump(-1, ' ', false,
                                       bad_utf8 == BadUtf8::Replace
                                           ? nlohmann::json::error_handler_t::replace
                                           : nlohmann::json::error_handler_t::strict);
      return;
    }
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t plain = 0;  // start of the run not written yet
  for (size_t i = first; i < text.size(); ++i) {
    const char c = text[i];
    const char* escape = nullptr;
    switch (c) {
      case '"':
        escape = "\\\"";
        break;
      case '\\':
        escape = "\\\\";
        break;
      case '\b':
        escape = "\\b";
        break;
      case '\f':
        escape = "\\f";
        break;
      case '\n':
        escape = "\\n";
        break;
      case '\r':
        escape = "\\r";
        break;
      case '\t':
        escape = "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20) continue;
    }
    out.append(text, plain, i - plain);
    plain = i + 1;
    if (escape != nullptr) {
      out += escape;
    } else {
      const char code[] = {'\\', 'u', '0', '0', kHex[(c >> 4) & 0xF], kHex[c & 0xF]};
      out.append(code, sizeof code);
    }
  }
  out.append(text, plain, text.size() - plain);
  out += '"';
}

template <typename Integer>
void appendInteger(std::string& out, Integer n) {
  char digits[24];
  const auto written = std::to_chars(digits, digits + sizeof digits, n);
  out.append(digits, written.ptr);
}

}  // namespace

void appendJsonString(std::string& out, const std::string& text, BadUtf8 bad_utf8) {
  appendString(out, text, bad_utf8);
}

void appendCompactDump(std::string& out, const nlohmann::json& value, BadUtf8 bad_utf8) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::null:
      out += "null";
      return;
    case Type::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Type::number_integer:
      appendInteger(out, value.get<std::int64_t>());
      return;
    case Type::number_unsigned:
      appendInteger(out, value.get<std::uint64_t>());
      return;
    case Type::string:
      appendString(out, value.get_ref<const std::string&>(), bad_utf8);
      return;
    case Type::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        if (!first) out += ',';
        first = false;
        appendString(out, key, bad_utf8);
        out += ':';
        appendCompactDump(out, item, bad_utf8);
      }
      out += '}';
      return;
    }
    case Type::array: {
      out += '[';
      bool first = true;
      for (const nlohmann::json& item : value) {
        if (!first) out += ',';
        first = false;
        appendCompactDump(out, item, bad_utf8);
      }
      out += ']';
      return;
    }
    default:  // floating point, binary, discarded: as nlohmann writes them
      out += value.dump();
  }
}

std::string compactDump(const nlohmann::json& value, BadUtf8 bad_utf8) {
  std::string out;
  appendCompactDump(out, value, bad_utf8);
  return out;
}

}  // namespace toolguard::detail
