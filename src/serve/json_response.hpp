#pragma once
// Internal: the service's JSON answers: a value, or {"error": MESSAGE}.

#include <nlohmann/json.hpp>
#include <string>

#include "serve/http_server.hpp"

namespace toolguard::serve {

/// `body` as one line of JSON (bytes that are not UTF-8 become U+FFFD).
HttpResponse jsonResponse(int status, const nlohmann::json& body);

/// {"error": message} with `status`.
HttpResponse errorResponse(int status, const std::string& message);

}  // namespace toolguard::serve
