// Where the approval store's files live: the home directory, the directory of
// each scope, and file names made from scope ids.
#include "approval/store_layout.hpp"

#include <cstdio>
#include <cstdlib>

#include "toolguard/approval_store.hpp"
#include "toolguard/paths.hpp"

namespace toolguard {

std::string toolguardHome(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("TOOLGUARD_HOME"); env != nullptr && *env != '\0') return env;
  std::string home = homeDirectory();
  if (home.empty() || home.back() != '/') home.push_back('/');
  home.append(".toolguard");
  return home;
}

namespace detail {

namespace {

constexpr size_t kMaxReadablePrefix = 40;

bool isSafeFileNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

bool isEdgeFiller(char c) {
  return c == '_' || c == '-' || c == '.';
}

// The id with unsafe bytes as `_`, runs of `_` collapsed, and no `_`, `-` or
// `.` at either end (so never a hidden file, `.` or `..`).
std::string readablePrefix(std::string_view scope_id) {
  std::string prefix;
  for (char c : scope_id) {
    const char safe = isSafeFileNameByte(c) ? c : '_';
    if (safe == '_' && !prefix.empty() && prefix.back() == '_') continue;
    prefix.push_back(safe);
  }
  size_t begin = 0;
  while (begin < prefix.size() && isEdgeFiller(prefix[begin])) ++begin;
  prefix.erase(0, begin);
  if (prefix.size() > kMaxReadablePrefix) prefix.resize(kMaxReadablePrefix);
  while (!prefix.empty() && isEdgeFiller(prefix.back())) prefix.pop_back();
  return prefix;
}

}  // namespace

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ULL;
  for (char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string scopeFileName(std::string_view scope_id) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(scope_id)));
  std::string name = readablePrefix(scope_id);
  if (!name.empty()) name.push_back('-');
  name.append(hash);
  name.append(".json");
  return name;
}

std::string_view scopeDirectoryName(ApprovalScope scope) {
  switch (scope) {
    case ApprovalScope::Project:
      return "projects";
    case ApprovalScope::Agent:
      return "agents";
    case ApprovalScope::Session:
      return "sessions";
    case ApprovalScope::Global:
      return "";
  }
  return "";
}

std::string scopeIdProblem(ApprovalScope scope, std::string_view scope_id) {
  if (scope == ApprovalScope::Global) {
    if (scope_id.empty()) return "";
    std::string problem = "the global scope has no scope id, but \"";
    problem.append(scope_id);
    problem.append("\" was given");
    return problem;
  }
  if (!scope_id.empty()) return "";
  std::string problem = "the ";
  problem.append(toString(scope));
  problem.append(" scope needs a scope id");
  return problem;
}

}  // namespace detail
}  // namespace toolguard
