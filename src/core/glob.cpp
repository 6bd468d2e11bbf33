// Glob to RE2 translation.
#include "glob.hpp"

#include <re2/re2.h>

namespace toolguard::detail {
namespace {

// Appends a bracket class starting at glob[i] == '['; returns the index after
// it, or npos when the class is not closed (then '[' is literal).
size_t appendClass(std::string_view glob, size_t i, bool in_path, std::string& out) {
  size_t j = i + 1;
  if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
  if (j < glob.size() && glob[j] == ']') ++j;
  while (j < glob.size() && glob[j] != ']') ++j;
  if (j >= glob.size()) return std::string_view::npos;
  std::string_view body = glob.substr(i + 1, j - i - 1);
  out += '[';
  size_t k = 0;
  if (!body.empty() && (body[0] == '!' || body[0] == '^')) {
    out += '^';
    if (in_path) out += '/';
    k = 1;
  }
  for (; k < body.size(); ++k) {
    char c = body[k];
    if (c == '\\' || c == '[' || c == ']' || c == '^') out += '\\';
    out += c;
  }
  out += ']';
  return j + 1;
}

std::string translate(std::string_view glob, bool in_path) {
  std::string out;
  for (size_t i = 0; i < glob.size();) {
    char c = glob[i];
    if (c == '*') {
      if (in_path && i + 1 < glob.size() && glob[i + 1] == '*') {
        bool slash_before = i == 0 || glob[i - 1] == '/';
        bool slash_after = i + 2 < glob.size() && glob[i + 2] == '/';
        if (slash_before && slash_after) {
          out += "(?:.*/)?";  // "**/" : zero or more whole components
          i += 3;
        } else if (slash_before && i + 2 == glob.size()) {
          // trailing "/**": everything below; the directory itself is handled by caller
          out += ".*";
          i += 2;
        } else {
          out += ".*";
          i += 2;
        }
        continue;
      }
      out += in_path ? "[^/]*" : ".*";
      ++i;
    } else if (c == '?') {
      out += in_path ? "[^/]" : ".";
      ++i;
    } else if (c == '[') {
      size_t next = appendClass(glob, i, in_path, out);
      if (next == std::string_view::npos) {
        out += "\\[";
        ++i;
      } else {
        i = next;
      }
    } else if (c == '\\' && i + 1 < glob.size()) {
      out += RE2::QuoteMeta(std::string(1, glob[i + 1]));
      i += 2;
    } else {
      out += RE2::QuoteMeta(std::string(1, c));
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string textGlobToRegex(std::string_view glob) {
  return translate(glob, false);
}

std::string pathGlobToRegex(std::string_view glob, std::string_view home) {
  std::string pattern;
  if (glob == "~" || glob.starts_with("~/")) {
    pattern.append(home);
    pattern.append(glob.substr(1));
  } else {
    pattern.append(glob);
  }
  while (pattern.size() > 1 && pattern.back() == '/') pattern.pop_back();
  std::string prefix;
  if (!pattern.starts_with('/')) {
    prefix = "(?:.*/)?";  // relative pattern: at any depth
    if (pattern.starts_with("**/")) pattern.erase(0, 3);
  }
  std::string body = translate(pattern, true);
  // "dir/**" also matches "dir" itself.
  if (pattern.size() >= 3 && pattern.ends_with("/**")) {
    std::string dir = translate(std::string_view(pattern).substr(0, pattern.size() - 3), true);
    return prefix.empty() ? "/?(?:" + body + "|" + dir + ")"
                          : prefix + "(?:" + body + "|" + dir + ")";
  }
  if (!prefix.empty()) return "/?" + prefix + body;
  return body;
}

}  // namespace toolguard::detail
