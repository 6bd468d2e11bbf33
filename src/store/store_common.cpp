// What both stores share: names of roles and states, the ask's JSON, token
// secrets and their hashes, and choosing a store by its URL.
#include <openssl/rand.h>

#include "core/sha256_hex.hpp"
#include "file_service_store.hpp"
#include "postgres_service_store.hpp"
#include "service_store.hpp"

namespace toolguard::store {

std::string_view toString(TokenRole role) {
  switch (role) {
    case TokenRole::Agent:
      return "agent";
    case TokenRole::Approver:
      return "approver";
    case TokenRole::Admin:
      return "admin";
  }
  return "agent";
}

std::optional<TokenRole> parseTokenRole(std::string_view name) {
  if (name == "agent") return TokenRole::Agent;
  if (name == "approver") return TokenRole::Approver;
  if (name == "admin") return TokenRole::Admin;
  return std::nullopt;
}

std::string_view toString(AskState state) {
  switch (state) {
    case AskState::Pending:
      return "pending";
    case AskState::Answered:
      return "answered";
    case AskState::Expired:
      return "expired";
  }
  return "pending";
}

std::optional<AskState> parseAskState(std::string_view name) {
  if (name == "pending") return AskState::Pending;
  if (name == "answered") return AskState::Answered;
  if (name == "expired") return AskState::Expired;
  return std::nullopt;
}

nlohmann::json toJson(const AskRecord& ask) {
  nlohmann::json out{{"id", ask.id},           {"state", toString(ask.state)},
                     {"call", ask.call},       {"decision", ask.decision},
                     {"offer", ask.offer},     {"created", ask.created},
                     {"expires", ask.expires}, {"agent", ask.token},
                     {"owner", ask.owner}};
  if (ask.state == AskState::Answered) out["answer"] = ask.answer;
  if (ask.state == AskState::Expired) out["ended"] = ask.ended.empty() ? kAskTimedOut : ask.ended;
  return out;
}

std::string tokenHash(const std::string& token) {
  return detail::sha256Hex(token);
}

std::string newToken() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw StoreError("no random bytes from OpenSSL for a token");
  }
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  // base64url without padding: 256 bits in 43 characters.
  std::string out = "tg_";
  unsigned buffer = 0;
  int bits = 0;
  for (unsigned char b : bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(buffer >> bits) & 63];
    }
  }
  if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 63];
  return out;
}

std::unique_ptr<ServiceStore> openStore(const std::string& url, const std::string& home) {
  if (url.empty() || url == "file") return std::make_unique<FileServiceStore>(home);
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return openPostgresStore(url);
  }
  throw StoreError("unknown store '" + url +
                   "': give 'file' (the files under TOOLGUARD_HOME) or a postgresql:// URL");
}

}  // namespace toolguard::store
