// Token and owner names, and the tuple that keys a token's sessions.
#include "token_names.hpp"

#include <nlohmann/json.hpp>

namespace toolguard::store {
namespace {

bool lowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// `extra`: characters allowed besides a-z, 0-9, '.', '_' and '-'.
std::string nameProblem(std::string_view name, std::string_view what, std::string_view extra) {
  std::string allowed = "a-z, 0-9, '.', '_', '-'";
  for (char c : extra) allowed += std::string(", '") + c + "'";
  if (name.empty()) return std::string(what) + ": required";
  if (name.size() > kMaxTokenNameBytes) {
    return std::string(what) + ": at most " + std::to_string(kMaxTokenNameBytes) + " characters";
  }
  if (!lowerAlnum(name.front())) {
    return std::string(what) + ": must start with a lowercase letter or a digit";
  }
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (lowerAlnum(c) || c == '.' || c == '_' || c == '-') continue;
    if (extra.find(c) != std::string_view::npos) continue;
    const unsigned char u = static_cast<unsigned char>(c);
    std::string shown;
    if (u >= 0x21 && u < 0x7f) {
      shown = "'" + std::string(1, c) + "'";
    } else {
      static const char* hex = "0123456789abcdef";
      shown = std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
    }
    return std::string(what) + ": " + shown + " at " + std::to_string(i) +
           " is not allowed (only " + allowed + ")";
  }
  return "";
}

}  // namespace

std::string tokenNameProblem(std::string_view name) {
  return nameProblem(name, "--name", "");
}

std::string ownerNameProblem(std::string_view owner) {
  return nameProblem(owner, "--owner", "@");
}

std::string sessionKey(std::string_view token, std::string_view session) {
  // Both come from strict JSON or the store, so both are UTF-8; a byte that
  // is not would make dump() throw, which fails the request closed.
  return nlohmann::json::array({std::string(token), std::string(session)}).dump();
}

}  // namespace toolguard::store
