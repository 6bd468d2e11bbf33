#pragma once
// Internal: the web queue's files (src/serve/web/), compiled into
// toolguard-serve by cmake/embed_web_assets.cmake.

#include <cstddef>

namespace toolguard::serve {

/// One file of the page.
struct WebAsset {
  const char* name;          ///< "index.html", "app.js"
  const char* content_type;  ///< "text/javascript; charset=utf-8"
  const char* body;
};

extern const WebAsset kWebAssets[];
extern const size_t kWebAssetCount;

}  // namespace toolguard::serve
