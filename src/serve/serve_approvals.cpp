// The approvals routes of `toolguard serve` (see serve_approvals.hpp).
#include "serve/serve_approvals.hpp"

#include "serve/json_response.hpp"
#include "serve/service_event.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

nlohmann::json approvalEntryJson(const ApprovalEntry& e) {
  return {{"tool", e.tool},
          {"binding", toString(e.binding)},
          {"value", e.value},
          {"scope", toString(e.scope)},
          {"scope_id", e.scope_id},
          {"rule", e.rule},
          {"created", e.created},
          {"note", e.note},
          {"description", e.describe()}};
}

// A text field of the body; nullopt when it is missing or not a string.
std::optional<std::string> text(const nlohmann::json& in, const char* key) {
  if (!in.contains(key) || !in[key].is_string()) return std::nullopt;
  return in[key].get<std::string>();
}

}  // namespace

HttpResponse listApprovals(store::ServiceStore& store) {
  ApprovalListing listing = store.listApprovals();
  nlohmann::json entries = nlohmann::json::array();
  for (const ApprovalEntry& e : listing.entries) entries.push_back(approvalEntryJson(e));
  HttpResponse r = jsonResponse(200, {{"approvals", entries}, {"errors", listing.errors}});
  r.headers.emplace_back("Cache-Control", "no-store");
  return r;
}

HttpResponse revokeApproval(store::ServiceStore& store, const HttpRequest& request,
                            const Caller& caller) {
  StrictJson body = parseStrictJson(request.body, 4);
  if (!body.value || !body.value->is_object()) {
    return errorResponse(400, "send one approval as GET /v1/approvals lists it");
  }
  const nlohmann::json& in = *body.value;
  ApprovalEntry grant;
  std::optional<std::string> tool = text(in, "tool"), binding = text(in, "binding"),
                             value = text(in, "value"), scope = text(in, "scope"),
                             scope_id = text(in, "scope_id"), rule = text(in, "rule");
  if (!tool || !value || !scope_id || !rule) {
    return errorResponse(400, "tool, value, scope_id and rule: strings, as listed");
  }
  std::optional<ApprovalBinding> b = binding ? parseApprovalBinding(*binding) : std::nullopt;
  if (!b) return errorResponse(400, "binding: one of the names GET /v1/approvals lists");
  std::optional<ApprovalScope> s = scope ? parseApprovalScope(*scope) : std::nullopt;
  if (!s) return errorResponse(400, "scope: session, project, agent or global");
  grant.tool = *tool;
  grant.binding = *b;
  grant.value = *value;
  grant.scope = *s;
  grant.scope_id = *scope_id;
  grant.rule = *rule;
  const size_t removed = store.removeApproval(grant);
  if (removed == 0) return errorResponse(404, "no remembered approval grants that");
  nlohmann::json event = serviceEvent("approval-revoked", caller.name);
  event["tool"] = grant.tool;
  event["approval"] = approvalEntryJson(grant);
  try {
    store.audit()->writeRecord(event);
  } catch (const std::exception& e) {
    // Forgotten all the same (it only takes a grant away); said in the answer.
    return jsonResponse(200, {{"removed", removed}, {"audit_error", e.what()}});
  }
  return jsonResponse(200, {{"removed", removed}});
}

}  // namespace toolguard::serve
