// The service's JSON answers.
#include "json_response.hpp"

#include "cli/call_json.hpp"

namespace toolguard::serve {

HttpResponse jsonResponse(int status, const nlohmann::json& body) {
  HttpResponse r;
  r.status = status;
  r.body = cli::dumpLine(body) + "\n";
  return r;
}

HttpResponse errorResponse(int status, const std::string& message) {
  return jsonResponse(status, {{"error", message}});
}

}  // namespace toolguard::serve
