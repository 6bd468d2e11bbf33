#pragma once
// Internal: the server's side of a LaterAnswer (http_server.hpp).

#include <functional>

#include "serve/http_server.hpp"

namespace toolguard::serve {

/// How the server waits for an answer given later.
struct LaterAnswer::Internal {
  /// `deliver` gets the answer: at once if it came already, else from the
  /// thread that completes it.
  static void take(LaterAnswer& later, std::function<void(HttpResponse)> deliver);
};

}  // namespace toolguard::serve
