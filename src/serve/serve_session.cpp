// The web queue's sessions (see serve_session.hpp).
#include "serve/serve_session.hpp"

#include "core/random_bytes.hpp"
#include "core/unicode_text.hpp"
#include "serve/json_response.hpp"
#include "serve/service_event.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

using SystemClock = std::chrono::system_clock;

// Equal without telling by its timing how much of it matched.
bool sameSecret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char differ = 0;
  for (size_t i = 0; i < a.size(); ++i) differ |= static_cast<unsigned char>(a[i] ^ b[i]);
  return differ == 0;
}

std::string cookieNamed(const HttpRequest& request, const std::string& name) {
  const std::string header = request.header("cookie");
  size_t at = 0;
  while (at < header.size()) {
    size_t end = header.find(';', at);
    if (end == std::string::npos) end = header.size();
    std::string pair = header.substr(at, end - at);
    const size_t first = pair.find_first_not_of(' ');
    pair = first == std::string::npos ? "" : pair.substr(first);
    if (pair.starts_with(name + "=")) return pair.substr(name.size() + 1);
    at = end + 1;
  }
  return "";
}

// Why a request's Origin is not this service's, or "" (no Origin: not a
// browser's cross-origin request).
std::string foreignOrigin(const HttpRequest& request, const std::string& public_origin) {
  const std::string origin = detail::asciiLowercase(request.header("origin"));
  if (origin.empty()) return "";
  const size_t scheme = origin.find("://");
  const std::string host = scheme == std::string::npos ? "" : origin.substr(scheme + 3);
  if (!host.empty() && host == detail::asciiLowercase(request.header("host"))) return "";
  if (!public_origin.empty() && origin == detail::asciiLowercase(public_origin)) return "";
  return "a request from another origin (" + request.header("origin") + ") may not use the session";
}

std::string cookie(const HttpRequest& request, const std::string& value, long max_age) {
  const bool secure = overTls(request);
  std::string c = sessionCookieName(secure) + "=" + value +
                  "; Path=/; HttpOnly; SameSite=Strict; Max-Age=" + std::to_string(max_age);
  if (secure) c += "; Secure";
  return c;
}

}  // namespace

std::string sessionCookieName(bool secure) {
  return secure ? "__Host-toolguard_session" : "toolguard_session";
}

std::string sessionCookie(const HttpRequest& request) {
  std::string value = cookieNamed(request, sessionCookieName(true));
  return value.empty() ? cookieNamed(request, sessionCookieName(false)) : value;
}

bool overTls(const HttpRequest& request) {
  return detail::asciiLowercase(request.header("x-forwarded-proto")) == "https";
}

std::string originOf(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  const size_t path = url.find('/', scheme + 3);
  return url.substr(0, path);
}

std::string crossSiteProblem(const HttpRequest& request, const std::string& csrf,
                             const std::string& public_origin) {
  if (std::string why = foreignOrigin(request, public_origin); !why.empty()) return why;
  if (request.method == "GET" || request.method == "HEAD") return "";
  if (!sameSecret(request.header("x-csrf-token"), csrf)) {
    return "the CSRF token is missing or wrong: send the session's token in X-CSRF-Token";
  }
  return "";
}

WebSessions::WebSessions(store::ServiceStore& store, Authenticator& auth,
                         std::chrono::seconds lifetime, std::string public_origin)
    : store_(store), auth_(auth), lifetime_(lifetime), public_origin_(std::move(public_origin)) {}

HttpResponse WebSessions::signIn(const HttpRequest& request) {
  // A form on another site can post text/plain that reads as JSON (login
  // CSRF: the victim signed in as someone else); a page's fetch of JSON
  // from another origin would need a preflight this service never grants.
  if (!detail::asciiLowercase(request.header("content-type")).starts_with("application/json")) {
    return errorResponse(415, "send the token as application/json");
  }
  if (std::string why = foreignOrigin(request, public_origin_); !why.empty()) {
    return errorResponse(403, why);
  }
  StrictJson body = parseStrictJson(request.body, 4);
  if (!body.value || !body.value->is_object() || !body.value->contains("token") ||
      !(*body.value)["token"].is_string()) {
    return errorResponse(400, "send {\"token\": \"tg_...\"}: an approver's token");
  }
  const std::string token_hash = store::tokenHash((*body.value)["token"].get<std::string>());
  HttpResponse refused;
  std::optional<store::TokenRecord> token = auth_.usableToken(token_hash, refused);
  if (!token || !auth_.withinRate(token->name, refused)) return refused;
  if (token->role == store::TokenRole::Agent) {
    return errorResponse(403, "the token '" + token->name +
                                  "' is an agent's: sign in with an approver's or admin's token");
  }
  const std::string secret = store::newToken();
  const auto now = SystemClock::now();
  store::SessionRecord session{token_hash, detail::randomHex(32), detail::formatAuditTime(now),
                               detail::formatAuditTime(now + lifetime_)};
  store_.createSession(store::tokenHash(secret), session);
  auth_.rememberSession(store::tokenHash(secret));
  nlohmann::json event = serviceEvent("signed-in", token->name);
  event["peer"] = request.peer;
  try {
    store_.audit()->writeRecord(event);
  } catch (const std::exception&) {
    store_.deleteSession(store::tokenHash(secret));  // a sign-in that is not recorded is not one
    throw;
  }
  HttpResponse r = jsonResponse(
      200, {{"name", token->name}, {"role", store::toString(token->role)}, {"csrf", session.csrf}});
  r.headers.emplace_back("Set-Cookie", cookie(request, secret, lifetime_.count()));
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

HttpResponse WebSessions::whoAmI(const Caller& caller) {
  if (caller.session.empty()) return errorResponse(401, "not signed in");
  HttpResponse r =
      jsonResponse(200, {{"name", caller.name}, {"role", store::toString(caller.role)}});
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

HttpResponse WebSessions::signOut(const HttpRequest& request, const Caller& caller) {
  if (caller.session.empty()) return errorResponse(400, "not a web session");
  store_.deleteSession(caller.session);
  HttpResponse r = jsonResponse(200, nlohmann::json::object());
  r.headers.emplace_back("Set-Cookie", cookie(request, "", 0));
  return r;
}

}  // namespace toolguard::serve
