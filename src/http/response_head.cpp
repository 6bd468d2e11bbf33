// An HTTP/1.x response's head and its body's framing (http/response_head.hpp).
#include "response_head.hpp"

#include <cctype>

namespace toolguard::detail {
namespace {

std::string asciiLowercaseHeader(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string_view trimmedHeaderText(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string ResponseHead::header(std::string_view lowercase_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lowercase_name) return value;
  }
  return "";
}

std::string ResponseHead::mediaType() const {
  const std::string type = header("content-type");
  return asciiLowercaseHeader(trimmedHeaderText(std::string_view(type).substr(0, type.find(';'))));
}

Expected<ResponseHead> parseResponseHead(std::string_view text) {
  const size_t line_end = text.find("\r\n");
  const std::string_view status_line = text.substr(0, line_end);
  if (!status_line.starts_with("HTTP/1.") || status_line.size() < 12 || status_line[8] != ' ' ||
      (status_line.size() > 12 && status_line[12] != ' ') ||
      !std::isdigit(static_cast<unsigned char>(status_line[9])) ||
      !std::isdigit(static_cast<unsigned char>(status_line[10])) ||
      !std::isdigit(static_cast<unsigned char>(status_line[11]))) {
    return fail("the answer is not HTTP/1.x");
  }
  ResponseHead head;
  head.status =
      (status_line[9] - '0') * 100 + (status_line[10] - '0') * 10 + (status_line[11] - '0');
  size_t at = line_end == std::string_view::npos ? text.size() : line_end + 2;
  while (at < text.size()) {
    size_t next = text.find("\r\n", at);
    if (next == std::string_view::npos) next = text.size();
    const std::string_view line = text.substr(at, next - at);
    at = next + 2;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return fail("a response header is malformed");
    }
    head.headers.emplace_back(asciiLowercaseHeader(line.substr(0, colon)),
                              std::string(trimmedHeaderText(line.substr(colon + 1))));
  }
  return head;
}

Expected<BodyFraming> bodyFramingOf(const ResponseHead& head, bool head_request) {
  const std::string encoding = asciiLowercaseHeader(head.header("transfer-encoding"));
  size_t lengths = 0;
  std::string length;
  for (const auto& [name, value] : head.headers) {
    if (name != "content-length") continue;
    if (lengths++ > 0 && value != length) return fail("two different Content-Length headers");
    length = value;
  }
  if (lengths > 0 && length.empty()) return fail("an empty Content-Length header");
  // RFC 9112 section 6.3: a sign of response splitting, handled as an error.
  if (lengths > 0 && !encoding.empty()) {
    return fail("both Transfer-Encoding and Content-Length: where the body ends is ambiguous");
  }
  BodyFraming framing;
  if (head.status / 100 == 1 || head.status == 204 || head.status == 304 || head_request) {
    framing.kind = BodyFraming::Kind::None;
  } else if (!encoding.empty()) {
    if (encoding != "chunked") return fail("a transfer encoding other than chunked: " + encoding);
    framing.kind = BodyFraming::Kind::Chunked;
  } else if (!length.empty()) {
    if (length.size() > 15 || length.find_first_not_of("0123456789") != std::string::npos) {
      return fail("Content-Length is not a number");
    }
    framing.kind = BodyFraming::Kind::Length;
    framing.length = std::stoull(length);
  }
  return framing;
}

}  // namespace toolguard::detail
