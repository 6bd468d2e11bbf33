// `toolguard mcp --header` (cli/upstream_headers.hpp).
#include "cli/upstream_headers.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace toolguard::cli {
namespace {

bool isTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// The value with each ${VAR} replaced; fails naming the variable.
Expected<std::string> expanded(const std::string& value, const std::string& name) {
  std::string out;
  for (size_t i = 0; i < value.size();) {
    if (value.compare(i, 2, "${") != 0) {
      out += value[i++];
      continue;
    }
    const size_t close = value.find('}', i + 2);
    const std::string variable =
        close == std::string::npos ? "" : value.substr(i + 2, close - i - 2);
    const bool well_formed =
        !variable.empty() &&
        (std::isalpha(static_cast<unsigned char>(variable[0])) != 0 || variable[0] == '_');
    for (char c : variable) {
      if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') {
        return fail("--header " + name + ": ${...} must name an environment variable");
      }
    }
    if (!well_formed)
      return fail("--header " + name + ": ${...} must name an environment variable");
    const char* set = std::getenv(variable.c_str());
    if (set == nullptr) {
      return fail("--header " + name + ": the environment variable " + variable + " is not set");
    }
    out += set;
    i = close + 1;
  }
  return out;
}

}  // namespace

Expected<std::vector<std::pair<std::string, std::string>>> upstreamHeaders(
    const std::vector<std::string>& options) {
  std::vector<std::pair<std::string, std::string>> headers;
  for (const std::string& option : options) {
    const size_t colon = option.find(':');
    const std::string name = option.substr(0, colon);
    if (colon == std::string::npos || name.empty() ||
        !std::all_of(name.begin(), name.end(), isTokenChar)) {
      return fail("--header takes \"Name: value\" (a header name, a colon, its value)");
    }
    std::string lowercase = name;
    for (char& c : lowercase) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* reserved : {"host", "content-length", "transfer-encoding", "connection",
                                 "content-type", "accept", "mcp-session-id", "mcp-protocol-version",
                                 "last-event-id", "upgrade", "te", "trailer", "expect"}) {
      if (lowercase == reserved) {
        return fail("--header " + name + ": the proxy writes this header itself");
      }
    }
    std::string value = option.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.erase(0, 1);
    Expected<std::string> full = expanded(value, name);
    if (!full) return fail(full.error());
    if (std::any_of(full->begin(), full->end(), [](char c) {
          return (static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f;
        })) {
      return fail("--header " + name + ": its value holds a line break or a control character");
    }
    headers.emplace_back(name, std::move(*full));
  }
  return headers;
}

}  // namespace toolguard::cli
