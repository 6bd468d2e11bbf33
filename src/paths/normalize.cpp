// Lexical path normalization and component-wise containment.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

#include "resolve.hpp"
#include "toolguard/paths.hpp"
#include "user_database.hpp"

namespace toolguard {

std::string homeDirectory() {
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') return home;
  if (std::optional<std::string> home = detail::homeOfThisUser()) return *home;
  return "/";
}

namespace detail {

std::string joinPath(std::string_view path, std::string_view cwd, std::string_view home) {
  std::string joined;
  if (path == "~" || path.starts_with("~/")) {
    joined.append(home);
    joined.push_back('/');
    joined.append(path.substr(1));
  } else if (!path.empty() && path.front() == '/') {
    joined.append(path);
  } else {
    joined.append(cwd.empty() ? std::string_view("/") : cwd);
    joined.push_back('/');
    joined.append(path);
  }
  return joined;
}

bool hasDotDot(std::string_view path) {
  for (size_t at = path.find(".."); at != std::string_view::npos; at = path.find("..", at + 1)) {
    const bool starts = at == 0 || path[at - 1] == '/';
    const bool ends = at + 2 == path.size() || path[at + 2] == '/';
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace detail

std::string normalizePath(std::string_view path, std::string_view cwd, std::string_view home) {
  if (path.empty()) return {};
  const std::string joined = detail::joinPath(path, cwd, home);

  std::vector<std::string_view> parts;
  std::string_view rest = joined;
  while (!rest.empty()) {
    size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  if (parts.empty()) return "/";
  std::string out;
  for (std::string_view part : parts) {
    out.push_back('/');
    out.append(part);
  }
  return out;
}

bool isWithin(std::string_view path, std::string_view root, bool case_insensitive) {
  if (root.empty() || path.empty()) return false;
  while (root.size() > 1 && root.back() == '/') root.remove_suffix(1);
  if (root == "/") return path.starts_with('/');
  if (path.size() < root.size()) return false;
  const std::string_view head = path.substr(0, root.size());
  const bool same = case_insensitive
                        ? std::equal(head.begin(), head.end(), root.begin(),
                                     [](char a, char b) {
                                       return std::tolower(static_cast<unsigned char>(a)) ==
                                              std::tolower(static_cast<unsigned char>(b));
                                     })
                        : head == root;
  if (!same) return false;
  return path.size() == root.size() || path[root.size()] == '/';
}

}  // namespace toolguard
