// Bearer tokens: hashed and looked up in a snapshot of the store's tokens
// at most a second old (so made-up tokens cost the store almost nothing);
// a token bucket per token name.
#include "serve_auth.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "audit/audit_detail.hpp"
#include "core/unicode_text.hpp"
#include "serve/json_response.hpp"
#include "serve/serve_session.hpp"

namespace toolguard::serve {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kSessionEnded = "not signed in (the session ended): sign in again";

HttpResponse refusal(int status, const std::string& message) {
  HttpResponse r = errorResponse(status, message);
  if (status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"toolguard\"");
  if (status == 429) r.headers.emplace_back("Retry-After", "1");
  return r;
}

// The store failed before the caller showed a usable token: what failed is
// in the log (at most a line a second: callers without a token must not
// flood it) and /metrics, never in the answer (a database URL, a host).
HttpResponse storeUnavailable(Metrics& metrics, const char* what, const std::exception& e) {
  static std::atomic<int64_t> last_logged{0};
  const int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::now().time_since_epoch()).count();
  if (int64_t seen = last_logged.load();
      seen != now && last_logged.compare_exchange_strong(seen, now)) {
    std::fprintf(stderr, "toolguard serve: %s could not be looked up: %s\n", what, e.what());
  }
  metrics.storeError();
  HttpResponse r = refusal(503, "service unavailable");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// The token of "Authorization: Bearer TOKEN": the scheme in any case (RFC
// 7235), then one or more spaces; "" when the header is not that.
std::string bearerToken(const std::string& header) {
  constexpr std::string_view scheme = "bearer";
  if (header.size() <= scheme.size() || header[scheme.size()] != ' ' ||
      detail::asciiLowercase(header.substr(0, scheme.size())) != scheme) {
    return "";
  }
  const size_t start = header.find_first_not_of(' ', scheme.size());
  return start == std::string::npos ? "" : header.substr(start);
}

}  // namespace

bool presentsCredentials(const HttpRequest& request) {
  const std::string header = request.header("authorization");
  if (!bearerToken(header).empty()) return true;
  return header.empty() && (!sessionCookie(request).empty() || !request.client_certificate.empty());
}

Authenticator::Authenticator(store::ServiceStore& store, Metrics& metrics,
                             double requests_per_second, std::string public_origin)
    : store_(store),
      metrics_(metrics),
      rate_(requests_per_second),
      public_origin_(std::move(public_origin)) {}

std::optional<store::TokenRecord> Authenticator::lookUp(const std::string& key, bool by_name) {
  const auto find = [&](const Snapshot& s) -> std::optional<store::TokenRecord> {
    const auto& index = by_name ? s.by_name : s.by_hash;
    auto it = index.find(key);
    if (it == index.end()) return std::nullopt;
    return it->second;
  };
  const auto now = Clock::now();
  bool refreshes_stale = false;  // this request refreshes a stale snapshot for everyone
  {
    std::lock_guard<std::mutex> lock(snapshot_mutex_);
    std::optional<store::TokenRecord> found = find(*snapshot_);
    if (now - snapshot_->read < std::chrono::seconds(1)) {
      if (found) return found;
      // A token made a moment ago, or a made-up one: the store is read
      // again for it only within the budget.
      if (!token_misses_.take(now)) return std::nullopt;
    } else if (refreshing_) {
      // Another request is reading the store: a token the snapshot holds
      // is used meanwhile (a revocation takes effect a read later).
      if (found) return found;
      if (!token_misses_.take(now)) return std::nullopt;
    } else {
      refreshing_ = true;
      refreshes_stale = true;
    }
  }
  auto next = std::make_shared<Snapshot>();
  next->read = now;
  try {
    for (store::TokenRecord& t : store_.tokens()) {
      next->by_hash[t.hash] = t;
      next->by_name[t.name] = std::move(t);
    }
  } catch (...) {
    if (refreshes_stale) {
      std::lock_guard<std::mutex> lock(snapshot_mutex_);
      refreshing_ = false;
    }
    throw;
  }
  std::lock_guard<std::mutex> lock(snapshot_mutex_);
  if (refreshes_stale) refreshing_ = false;
  if (next->read >= snapshot_->read) snapshot_ = next;
  return find(*next);
}

bool Authenticator::lookUpOrRefuse(const std::string& key, bool by_name,
                                   std::optional<store::TokenRecord>& found,
                                   HttpResponse& refused) {
  try {
    found = lookUp(key, by_name);
    return true;
  } catch (const std::exception& e) {
    refused = storeUnavailable(metrics_, "a token", e);
    return false;
  }
}

std::optional<store::TokenRecord> Authenticator::usableToken(const std::string& hash,
                                                             HttpResponse& refused) {
  std::optional<store::TokenRecord> token;
  if (!lookUpOrRefuse(hash, false, token, refused)) return std::nullopt;
  if (!token || token->revoked) {
    metrics_.refused(401);
    refused = refusal(401, token ? "the token was revoked" : "unknown token");
    return std::nullopt;
  }
  return token;
}

std::optional<store::TokenRecord> Authenticator::certifiedAgent(const std::string& name,
                                                                HttpResponse& refused) {
  std::optional<store::TokenRecord> token;
  if (!lookUpOrRefuse(name, true, token, refused)) return std::nullopt;
  if (!token || token->revoked || token->role != store::TokenRole::Agent) {
    metrics_.refused(401);
    refused = refusal(401, !token           ? "no token is named as the client certificate is"
                           : token->revoked ? "the token the client certificate names was revoked"
                                            : "a client certificate identifies agent tokens only");
    return std::nullopt;
  }
  return token;
}

std::optional<Caller> Authenticator::authenticate(const HttpRequest& request,
                                                  HttpResponse& refused) {
  if (!presentsCredentials(request)) {
    metrics_.refused(401);
    refused = refusal(401, "no token: send Authorization: Bearer TOKEN");
    return std::nullopt;
  }
  const std::string header = request.header("authorization");
  std::string hash;
  Caller caller;
  if (const std::string bearer = bearerToken(header); !bearer.empty()) {
    hash = store::tokenHash(bearer);
  } else if (const std::string cookie = sessionCookie(request); header.empty() && !cookie.empty()) {
    const std::string session_hash = store::tokenHash(cookie);
    std::optional<store::SessionRecord> session;
    if (mayReadSession(session_hash)) {
      try {
        session = store_.sessionByHash(session_hash);
      } catch (const std::exception& e) {
        refused = storeUnavailable(metrics_, "a session", e);
        return std::nullopt;
      }
      sessionRead(session_hash, session.has_value());
    }
    if (!session) {
      metrics_.refused(401);
      refused = refusal(401, kSessionEnded);
      return std::nullopt;
    }
    if (std::string why = crossSiteProblem(request, session->csrf, public_origin_); !why.empty()) {
      metrics_.refused(403);
      refused = refusal(403, why);
      return std::nullopt;
    }
    hash = session->token_hash;
    caller.session = session_hash;
    caller.csrf = session->csrf;
  } else {
    // A client certificate the TLS handshake verified names an agent token.
    std::optional<store::TokenRecord> token = certifiedAgent(request.client_certificate, refused);
    if (!token || !withinRate(token->name, refused)) return std::nullopt;
    caller.name = token->name;
    caller.role = token->role;
    return caller;
  }
  std::optional<store::TokenRecord> token = usableToken(hash, refused);
  if (!token) return std::nullopt;
  if (!caller.session.empty() && token->role == store::TokenRole::Agent) {
    metrics_.refused(403);
    refused = refusal(403, "an agent token has no web session");
    return std::nullopt;
  }
  if (!withinRate(token->name, refused)) return std::nullopt;
  caller.name = token->name;
  caller.role = token->role;
  caller.owner = token->owner;
  return caller;
}

bool Authenticator::mayReadSession(const std::string& hash) {
  std::lock_guard<std::mutex> lock(snapshot_mutex_);
  return known_sessions_.contains(hash) || session_misses_.take(Clock::now());
}

void Authenticator::sessionRead(const std::string& hash, bool found) {
  std::lock_guard<std::mutex> lock(snapshot_mutex_);
  if (!found) {
    known_sessions_.erase(hash);
    return;
  }
  if (known_sessions_.size() >= kMaxKnownSessions) known_sessions_.clear();
  known_sessions_.insert(hash);
}

void Authenticator::rememberSession(const std::string& hash) {
  sessionRead(hash, true);
}

bool Authenticator::refusedWithoutStore(const HttpRequest& request, HttpResponse& refused) {
  const std::string header = request.header("authorization");
  const std::string bearer = bearerToken(header);
  const std::string cookie = header.empty() ? sessionCookie(request) : "";
  if (bearer.empty() && cookie.empty()) return false;  // a certificate the handshake verified
  const std::string hash = store::tokenHash(bearer.empty() ? cookie : bearer);
  const auto now = Clock::now();
  const char* why = nullptr;
  {
    std::lock_guard<std::mutex> lock(snapshot_mutex_);
    if (!bearer.empty()) {
      if (!refreshing_ && now - snapshot_->read >= std::chrono::seconds(1)) return false;
      auto it = snapshot_->by_hash.find(hash);
      if (it != snapshot_->by_hash.end()) {
        if (!it->second.revoked) return false;
        why = "the token was revoked";
      } else {
        if (!token_misses_.spent(now)) return false;
        why = "unknown token";
      }
    } else {
      if (known_sessions_.contains(hash) || !session_misses_.spent(now)) return false;
      why = kSessionEnded;
    }
  }
  metrics_.refused(401);
  refused = refusal(401, why);
  return true;
}

std::optional<store::TokenRecord> Authenticator::remembered(const std::string& hash) {
  std::lock_guard<std::mutex> lock(snapshot_mutex_);
  if (!refreshing_ && Clock::now() - snapshot_->read >= std::chrono::seconds(1)) {
    return std::nullopt;
  }
  auto it = snapshot_->by_hash.find(hash);
  if (it == snapshot_->by_hash.end()) return std::nullopt;
  return it->second;
}

std::optional<Caller> Authenticator::authenticateNow(const HttpRequest& request,
                                                     HttpResponse& refused, bool& must_wait) {
  must_wait = true;
  const std::string bearer = bearerToken(request.header("authorization"));
  if (bearer.empty()) return std::nullopt;
  std::optional<store::TokenRecord> token = remembered(store::tokenHash(bearer));
  if (!token || token->revoked) return std::nullopt;
  must_wait = false;
  if (!withinRate(token->name, refused)) return std::nullopt;
  Caller caller;
  caller.name = token->name;
  caller.role = token->role;
  caller.owner = token->owner;
  return caller;
}

bool Authenticator::withinRate(const std::string& token_name, HttpResponse& refused) {
  const auto now = Clock::now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Bucket& b = buckets_[token_name];
    if (b.refilled == Clock::time_point{}) {
      b.tokens = rate_;
    } else {
      b.tokens = std::min(
          rate_, b.tokens + rate_ * std::chrono::duration<double>(now - b.refilled).count());
    }
    b.refilled = now;
    if (b.tokens < 1) {
      metrics_.refused(429);
      refused = refusal(429, "too many requests for the token '" + token_name + "' (at most " +
                                 std::to_string(static_cast<long>(rate_)) + " a second)");
      return false;
    }
    b.tokens -= 1;
  }
  return true;
}

nlohmann::json Authenticator::refusalRecord(const HttpRequest& request,
                                            const HttpResponse& refused) const {
  nlohmann::json body = nlohmann::json::parse(refused.body, nullptr, false);
  return {{"time", detail::formatAuditTime(std::chrono::system_clock::now())},
          {"id", detail::randomAuditId()},
          {"tool", ""},
          {"event", "request-refused"},
          {"status", refused.status},
          {"error", body.is_object() ? body.value("error", "") : ""},
          {"method", request.method},
          {"path", request.path},
          {"peer", request.peer},
          {"verdict", "deny"}};
}

}  // namespace toolguard::serve
