// RFC 3986 reference resolution for "$id" and "$ref".
#include "schema/uri.hpp"

#include <optional>

namespace toolguard::schema {
namespace {

struct UriParts {
  std::optional<std::string> scheme;
  std::optional<std::string> authority;
  std::string path;
  std::optional<std::string> query;
  std::optional<std::string> fragment;
};

bool isSchemeChar(char c, bool first) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  if (first) return false;
  return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

UriParts parseUri(std::string_view text) {
  UriParts parts;
  std::size_t hash = text.find('#');
  if (hash != std::string_view::npos) {
    parts.fragment = std::string(text.substr(hash + 1));
    text = text.substr(0, hash);
  }
  std::size_t question = text.find('?');
  if (question != std::string_view::npos) {
    parts.query = std::string(text.substr(question + 1));
    text = text.substr(0, question);
  }
  std::size_t colon = text.find(':');
  if (colon != std::string_view::npos && colon > 0) {
    bool scheme = true;
    for (std::size_t i = 0; i < colon && scheme; ++i) scheme = isSchemeChar(text[i], i == 0);
    if (scheme) {
      parts.scheme = std::string(text.substr(0, colon));
      text = text.substr(colon + 1);
    }
  }
  if (text.substr(0, 2) == "//") {
    text = text.substr(2);
    std::size_t slash = text.find('/');
    parts.authority = std::string(text.substr(0, slash));
    text = slash == std::string_view::npos ? std::string_view() : text.substr(slash);
  }
  parts.path = std::string(text);
  return parts;
}

std::string compose(const UriParts& parts) {
  std::string out;
  if (parts.scheme) out += *parts.scheme + ":";
  if (parts.authority) out += "//" + *parts.authority;
  out += parts.path;
  if (parts.query) out += "?" + *parts.query;
  if (parts.fragment) out += "#" + *parts.fragment;
  return out;
}

// RFC 3986 section 5.2.4.
std::string removeDotSegments(std::string_view input) {
  std::string output;
  while (!input.empty()) {
    if (input.substr(0, 3) == "../") {
      input.remove_prefix(3);
    } else if (input.substr(0, 2) == "./") {
      input.remove_prefix(2);
    } else if (input.substr(0, 3) == "/./") {
      input.remove_prefix(2);
    } else if (input == "/.") {
      input = "/";
    } else if (input.substr(0, 4) == "/../" || input == "/..") {
      input = input.size() == 3 ? std::string_view("/") : input.substr(3);
      std::size_t last = output.rfind('/');
      output.erase(last == std::string::npos ? 0 : last);
    } else if (input == "." || input == "..") {
      input = {};
    } else {
      std::size_t next = input.find('/', input[0] == '/' ? 1 : 0);
      std::string_view segment = input.substr(0, next);
      output += segment;
      input.remove_prefix(segment.size());
    }
  }
  return output;
}

// RFC 3986 section 5.2.3.
std::string merge(const UriParts& base, const std::string& path) {
  if (base.authority && base.path.empty()) return "/" + path;
  std::size_t slash = base.path.rfind('/');
  if (slash == std::string::npos) return path;
  return base.path.substr(0, slash + 1) + path;
}

}  // namespace

std::string resolveUri(std::string_view base_text, std::string_view reference) {
  const UriParts r = parseUri(reference);
  const UriParts base = parseUri(base_text);
  UriParts t;
  if (r.scheme) {
    t = r;
    t.path = removeDotSegments(r.path);
  } else {
    if (r.authority) {
      t.authority = r.authority;
      t.path = removeDotSegments(r.path);
      t.query = r.query;
    } else {
      if (r.path.empty()) {
        t.path = base.path;
        t.query = r.query ? r.query : base.query;
      } else {
        t.path = removeDotSegments(r.path[0] == '/' ? r.path : merge(base, r.path));
        t.query = r.query;
      }
      t.authority = base.authority;
    }
    t.scheme = base.scheme;
  }
  t.fragment = r.fragment;
  return compose(t);
}

std::pair<std::string, std::string> splitFragment(std::string_view uri) {
  std::size_t hash = uri.find('#');
  if (hash == std::string_view::npos) return {std::string(uri), ""};
  return {std::string(uri.substr(0, hash)), std::string(uri.substr(hash + 1))};
}

}  // namespace toolguard::schema
