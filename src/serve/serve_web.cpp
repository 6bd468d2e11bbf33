// The web queue's page and its sign-in (see serve_web.hpp).
#include "serve/serve_web.hpp"

#include <cstring>

#include "audit/audit_detail.hpp"
#include "core/random_bytes.hpp"
#include "serve/json_response.hpp"
#include "serve/web_assets.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

using SystemClock = std::chrono::system_clock;

// Nothing but the page's own files: no inline script or style, no other
// origin, no framing. A model's text that slipped into the page unescaped
// would still run nothing.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

void addPageHeaders(HttpResponse& r) {
  r.headers.emplace_back("Content-Security-Policy", kContentSecurityPolicy);
  r.headers.emplace_back("X-Content-Type-Options", "nosniff");
  r.headers.emplace_back("X-Frame-Options", "DENY");
  r.headers.emplace_back("Referrer-Policy", "no-referrer");
  r.headers.emplace_back("Cache-Control", "no-store");
}

// Behind a TLS proxy (X-Forwarded-Proto: https) the cookie is Secure.
std::string cookie(const HttpRequest& request, const std::string& value, long max_age) {
  std::string c = std::string(kSessionCookie) + "=" + value +
                  "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(max_age);
  if (request.header("x-forwarded-proto") == "https") c += "; Secure";
  return c;
}

}  // namespace

WebQueue::WebQueue(store::ServiceStore& store, Authenticator& auth,
                   std::chrono::seconds session_lifetime)
    : store_(store), auth_(auth), lifetime_(session_lifetime) {}

std::optional<HttpResponse> WebQueue::asset(const HttpRequest& request) const {
  std::string name;
  if (request.path == "/" || request.path == "/index.html") {
    name = "index.html";
  } else if (request.path.starts_with("/ui/")) {
    name = request.path.substr(4);
  } else {
    return std::nullopt;
  }
  for (size_t i = 0; i < kWebAssetCount; ++i) {
    if (name != kWebAssets[i].name) continue;
    if (request.method != "GET" && request.method != "HEAD") {
      return errorResponse(405, "GET the page");
    }
    HttpResponse r;
    r.content_type = kWebAssets[i].content_type;
    r.body = kWebAssets[i].body;
    addPageHeaders(r);
    return r;
  }
  return std::nullopt;
}

HttpResponse WebQueue::signIn(const HttpRequest& request) {
  StrictJson body = parseStrictJson(request.body, 4);
  if (!body.value || !body.value->is_object() || !body.value->contains("token") ||
      !(*body.value)["token"].is_string()) {
    return errorResponse(400, "send {\"token\": \"tg_...\"}: an approver's token");
  }
  HttpResponse refused;
  std::optional<store::TokenRecord> token =
      auth_.usableToken(store::tokenHash((*body.value)["token"].get<std::string>()), refused);
  if (!token) return refused;
  if (token->role == store::TokenRole::Agent) {
    return errorResponse(403, "the token '" + token->name +
                                  "' is an agent's: sign in with an approver's or admin's token");
  }
  const std::string secret = store::newToken();
  const auto now = SystemClock::now();
  store::SessionRecord session{store::tokenHash((*body.value)["token"].get<std::string>()),
                               detail::randomHex(32), detail::formatAuditTime(now),
                               detail::formatAuditTime(now + lifetime_)};
  store_.createSession(store::tokenHash(secret), session);
  store_.audit()->writeRecord({{"time", session.created},
                               {"id", detail::randomAuditId()},
                               {"tool", ""},
                               {"event", "signed-in"},
                               {"by", token->name},
                               {"peer", request.peer},
                               {"verdict", ""}});
  HttpResponse r = jsonResponse(
      200, {{"name", token->name}, {"role", store::toString(token->role)}, {"csrf", session.csrf}});
  r.headers.emplace_back("Set-Cookie", cookie(request, secret, lifetime_.count()));
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

HttpResponse WebQueue::whoAmI(const Caller& caller) {
  if (caller.session.empty()) return errorResponse(401, "not signed in");
  HttpResponse r = jsonResponse(
      200, {{"name", caller.name}, {"role", store::toString(caller.role)}, {"csrf", caller.csrf}});
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

HttpResponse WebQueue::signOut(const Caller& caller) {
  if (caller.session.empty()) return errorResponse(400, "not a web session");
  store_.deleteSession(caller.session);
  HttpResponse r = jsonResponse(200, nlohmann::json::object());
  HttpRequest none;
  r.headers.emplace_back("Set-Cookie", cookie(none, "", 0));
  return r;
}

}  // namespace toolguard::serve
