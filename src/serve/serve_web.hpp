#pragma once
// Internal: the web queue of `toolguard serve`: its page (built into the
// binary, served with a strict Content-Security-Policy) and signing in with
// an approver's token, which opens a session kept in the store and carried
// by an HttpOnly, SameSite=Strict cookie. The page then uses the /v1 routes
// with that cookie (serve_auth.hpp checks it and the CSRF token).

#include <chrono>
#include <optional>

#include "serve/http_server.hpp"
#include "serve/serve_auth.hpp"
#include "store/service_store.hpp"

namespace toolguard::serve {

/// The page and the session routes.
class WebQueue {
 public:
  WebQueue(store::ServiceStore& store, Authenticator& auth, std::chrono::seconds session_lifetime);

  /// GET / and GET /ui/FILE: the page's files; nullopt for any other path.
  std::optional<HttpResponse> asset(const HttpRequest& request) const;

  /// POST /ui/session: signs in with {"token": ...} (approver or admin).
  HttpResponse signIn(const HttpRequest& request);

  /// GET /ui/session: who is signed in, with the session's CSRF token.
  static HttpResponse whoAmI(const Caller& caller);

  /// POST /ui/logout: ends the caller's session.
  HttpResponse signOut(const Caller& caller);

 private:
  store::ServiceStore& store_;
  Authenticator& auth_;
  std::chrono::seconds lifetime_;
};

}  // namespace toolguard::serve
