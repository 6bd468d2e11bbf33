// GET /v1/audit (see audit_page.hpp).
#include "serve/audit_page.hpp"

#include "serve/json_response.hpp"
#include "toolguard/audit_log.hpp"

namespace toolguard::serve {

HttpResponse auditPage(store::ServiceStore& store, const HttpRequest& request) {
  AuditQuery q;
  const auto now = std::chrono::system_clock::now();
  if (!request.arg("since").empty()) {
    q.since = parseAuditSince(request.arg("since"), now);
    if (!q.since) return errorResponse(400, "since: a time, a date or a length of time (15m)");
  }
  if (!request.arg("until").empty()) {
    q.until = parseAuditTime(request.arg("until"));
    if (!q.until) return errorResponse(400, "until: an RFC 3339 time or a date");
  }
  q.tool = request.arg("tool");
  q.verdict = request.arg("verdict");
  q.rule = request.arg("rule");
  q.agent = request.arg("agent");
  std::optional<long> last = request.wholeNumberArg("last");
  if (!last) return errorResponse(400, "last: a whole number");
  // A page is bounded: the store reads from the newest back, no further.
  if (*last > static_cast<long>(kMaxAuditPage)) {
    return errorResponse(400, "last: at most " + std::to_string(kMaxAuditPage) +
                                  " records a page (narrow it with since, until or the filters)");
  }
  q.last = *last > 0 ? static_cast<size_t>(*last) : kMaxAuditPage;
  return jsonResponse(200, store.queryAudit(q));
}

}  // namespace toolguard::serve
