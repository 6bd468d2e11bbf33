#pragma once
// Internal: the web queue's sign-in. An approver's token opens a session
// kept in the store (by the hash of the cookie's secret) and carried by an
// HttpOnly, SameSite=Strict cookie; the session's CSRF token is handed to
// the page once, at sign-in, and every change made with the cookie must
// carry it, from this origin. Cookies are not scoped by port, so another
// server on the same host may receive the cookie: it can never obtain the
// CSRF token with it.

#include <chrono>
#include <string>

#include "serve/http_server.hpp"
#include "serve/serve_auth.hpp"
#include "store/service_store.hpp"

namespace toolguard::serve {

/// The session cookie's name: "__Host-toolguard_session" over TLS (a
/// browser keeps it only from a secure origin, for the whole host), else
/// "toolguard_session".
std::string sessionCookieName(bool secure);

/// The session cookie's value in the request ("" when none).
std::string sessionCookie(const HttpRequest& request);

/// True when the request says it came through TLS (X-Forwarded-Proto: https).
bool overTls(const HttpRequest& request);

/// Why a request made with the session cookie must be refused as possibly
/// forged by another site, or "": an Origin that is not this service's (the
/// Host it was reached at, or `public_origin`), or a change (not GET or
/// HEAD) without the session's CSRF token in X-CSRF-Token.
std::string crossSiteProblem(const HttpRequest& request, const std::string& csrf,
                             const std::string& public_origin);

/// "https://guard.example.com" from "https://guard.example.com/queue/" ("" when none).
std::string originOf(const std::string& url);

/// Sign-in, who-am-I and sign-out.
class WebSessions {
 public:
  WebSessions(store::ServiceStore& store, Authenticator& auth, std::chrono::seconds lifetime,
              std::string public_origin);

  /// POST /ui/session with {"token": ...} as application/json from this
  /// origin: an approver's or admin's token opens a session; {"name",
  /// "role", "csrf"} and the cookie.
  HttpResponse signIn(const HttpRequest& request);

  /// GET /ui/session: {"name", "role"} of the session (never its CSRF token).
  static HttpResponse whoAmI(const Caller& caller);

  /// POST /ui/logout: ends the caller's session and clears the cookie.
  HttpResponse signOut(const HttpRequest& request, const Caller& caller);

 private:
  store::ServiceStore& store_;
  Authenticator& auth_;
  std::chrono::seconds lifetime_;
  std::string public_origin_;
};

}  // namespace toolguard::serve
