// The service's JSON answers.
#include "json_response.hpp"

#include "front/call_json.hpp"

namespace toolguard::serve {

HttpResponse jsonResponse(int status, const nlohmann::json& body) {
  HttpResponse r;
  r.status = status;
  r.body = front::dumpLine(body) + "\n";
  return r;
}

HttpResponse errorResponse(int status, const std::string& message) {
  return jsonResponse(status, {{"error", message}});
}

}  // namespace toolguard::serve
