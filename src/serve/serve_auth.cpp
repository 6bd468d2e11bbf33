// Bearer tokens: hashed and looked up in the store, cached for a second;
// a token bucket per token name.
#include "serve_auth.hpp"

#include "audit/audit_detail.hpp"
#include "serve/json_response.hpp"
#include "serve/serve_session.hpp"

namespace toolguard::serve {
namespace {

using Clock = std::chrono::steady_clock;

HttpResponse refusal(int status, const std::string& message) {
  HttpResponse r = errorResponse(status, message);
  if (status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"toolguard\"");
  if (status == 429) r.headers.emplace_back("Retry-After", "1");
  return r;
}

}  // namespace

Authenticator::Authenticator(store::ServiceStore& store, Metrics& metrics,
                             double requests_per_second, std::string public_origin)
    : store_(store),
      metrics_(metrics),
      rate_(requests_per_second),
      public_origin_(std::move(public_origin)) {}

std::optional<store::TokenRecord> Authenticator::usableToken(const std::string& hash,
                                                             HttpResponse& refused) {
  const auto now = Clock::now();
  std::optional<store::TokenRecord> token;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    auto known = by_hash_.find(hash);
    if (known != by_hash_.end() && now - known->second.read < std::chrono::seconds(1)) {
      token = known->second.token;
    } else {
      lock.unlock();
      try {
        token = store_.tokenByHash(hash);
      } catch (const std::exception& e) {
        metrics_.storeError();
        refused = refusal(503, std::string("the store failed: ") + e.what());
        return std::nullopt;
      }
      lock.lock();
      if (by_hash_.size() > 10000) by_hash_.clear();  // unknown tokens must not fill memory
      by_hash_[hash] = Known{token, now};
    }
  }
  if (!token || token->revoked) {
    metrics_.refused(401);
    refused = refusal(401, token ? "the token was revoked" : "unknown token");
    return std::nullopt;
  }
  return token;
}

std::optional<store::TokenRecord> Authenticator::certifiedAgent(const std::string& name,
                                                                HttpResponse& refused) {
  const auto now = Clock::now();
  std::optional<store::TokenRecord> token;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (now - agents_read_ >= std::chrono::seconds(1)) {
      lock.unlock();
      std::vector<store::TokenRecord> all;
      try {
        all = store_.tokens();
      } catch (const std::exception& e) {
        metrics_.storeError();
        refused = refusal(503, std::string("the store failed: ") + e.what());
        return std::nullopt;
      }
      lock.lock();
      agents_by_name_.clear();
      for (store::TokenRecord& t : all) agents_by_name_[t.name] = std::move(t);
      agents_read_ = now;
    }
    if (auto it = agents_by_name_.find(name); it != agents_by_name_.end()) token = it->second;
  }
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
  const std::string header = request.header("authorization");
  std::string hash;
  Caller caller;
  if (header.starts_with("Bearer ") && header.size() > 7) {
    hash = store::tokenHash(header.substr(7));
  } else if (const std::string cookie = sessionCookie(request); header.empty() && !cookie.empty()) {
    std::optional<store::SessionRecord> session;
    try {
      session = store_.sessionByHash(store::tokenHash(cookie));
    } catch (const std::exception& e) {
      metrics_.storeError();
      refused = refusal(503, std::string("the store failed: ") + e.what());
      return std::nullopt;
    }
    if (!session) {
      metrics_.refused(401);
      refused = refusal(401, "not signed in (the session ended): sign in again");
      return std::nullopt;
    }
    if (std::string why = crossSiteProblem(request, session->csrf, public_origin_); !why.empty()) {
      metrics_.refused(403);
      refused = refusal(403, why);
      return std::nullopt;
    }
    hash = session->token_hash;
    caller.session = store::tokenHash(cookie);
    caller.csrf = session->csrf;
  } else if (header.empty() && !request.client_certificate.empty()) {
    // A client certificate the TLS handshake verified names an agent token.
    std::optional<store::TokenRecord> token = certifiedAgent(request.client_certificate, refused);
    if (!token || !withinRate(token->name, refused)) return std::nullopt;
    caller.name = token->name;
    caller.role = token->role;
    return caller;
  } else {
    metrics_.refused(401);
    refused = refusal(401, "no token: send Authorization: Bearer TOKEN");
    return std::nullopt;
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
