// Checks shared by the tables of builds, tests, package managers and
// compilers (build_tool_checks.hpp).
#include "build_tool_checks.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "shell_facts.hpp"
#include "toolguard/call_view.hpp"

namespace toolguard::detail {

bool buildToolInside(const ShellWord& word, const CommandScene& scene) {
  const std::string& t = word.text;
  if (t.empty() || t == "-") return false;
  if (!word.dynamic) return scene.view.insideWorkspace(resolvedPath(word, scene));
  const size_t glob = t.find_first_of("*?[");
  if (word.source.find_first_of("$`") != std::string::npos || glob == std::string::npos ||
      t.find("..") != std::string::npos) {
    return false;
  }
  const size_t slash = t.rfind('/', glob);
  const std::string dir = slash == std::string::npos ? "." : t.substr(0, slash == 0 ? 1 : slash);
  return scene.view.insideWorkspace(resolvedPath(ShellWord{dir, false, dir}, scene));
}

bool buildToolTextInside(std::string_view text, const CommandScene& scene) {
  return buildToolInside(ShellWord{std::string(text), false, std::string(text)}, scene);
}

bool buildToolOperandsInside(const TableParse& parse, const CommandScene& scene) {
  return std::all_of(parse.operands.begin(), parse.operands.end(),
                     [&](const ShellWord& w) { return buildToolInside(w, scene); });
}

bool buildToolDigits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

bool buildToolPlainValue(std::string_view t) {
  return std::all_of(t.begin(), t.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_.+,-").find(c) != std::string_view::npos;
  });
}

std::vector<std::string_view> buildToolSplit(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(separator, at);
    if (end == std::string_view::npos) end = text.size();
    if (end > at) out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

}  // namespace toolguard::detail
