// Bearer tokens: hashed and looked up in the store, cached for a second;
// a token bucket per token name.
#include "serve_auth.hpp"

#include "audit/audit_detail.hpp"
#include "serve/json_response.hpp"

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
                             double requests_per_second)
    : store_(store), metrics_(metrics), rate_(requests_per_second) {}

std::optional<Caller> Authenticator::authenticate(const HttpRequest& request,
                                                  HttpResponse& refused) {
  const std::string header = request.header("authorization");
  if (!header.starts_with("Bearer ") || header.size() <= 7) {
    metrics_.refused(401);
    refused = refusal(401, "no token: send Authorization: Bearer TOKEN");
    return std::nullopt;
  }
  const std::string hash = store::tokenHash(header.substr(7));
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
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Bucket& b = buckets_[token->name];
    if (b.refilled == Clock::time_point{}) {
      b.tokens = rate_;
    } else {
      b.tokens = std::min(
          rate_, b.tokens + rate_ * std::chrono::duration<double>(now - b.refilled).count());
    }
    b.refilled = now;
    if (b.tokens < 1) {
      metrics_.refused(429);
      refused = refusal(429, "too many requests for the token '" + token->name + "' (at most " +
                                 std::to_string(static_cast<long>(rate_)) + " a second)");
      return std::nullopt;
    }
    b.tokens -= 1;
  }
  return Caller{token->name, token->role};
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
