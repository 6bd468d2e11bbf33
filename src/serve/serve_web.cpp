// The web queue's page (see serve_web.hpp).
#include "serve/serve_web.hpp"

#include "serve/json_response.hpp"
#include "serve/web_assets.hpp"

namespace toolguard::serve {
namespace {

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

}  // namespace

std::optional<HttpResponse> pageAsset(const HttpRequest& request) {
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

}  // namespace toolguard::serve
