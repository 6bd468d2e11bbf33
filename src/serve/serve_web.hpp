#pragma once
// Internal: the web queue's page: its files, built into the binary
// (web_assets.hpp), served with a strict Content-Security-Policy. Signing in
// is serve_session.hpp's.

#include <optional>

#include "serve/http_server.hpp"

namespace toolguard::serve {

/// GET / and GET /ui/FILE: the page's files; nullopt for any other path.
std::optional<HttpResponse> pageAsset(const HttpRequest& request);

}  // namespace toolguard::serve
