#pragma once
// Internal: the remembered approvals through `toolguard serve`: GET
// /v1/approvals lists them, POST /v1/approvals/revoke forgets one (the web
// queue's Approvals view). Each revocation is audited.

#include "serve/http_server.hpp"
#include "serve/serve_auth.hpp"
#include "store/service_store.hpp"

namespace toolguard::serve {

/// GET /v1/approvals: {"approvals": [{"tool", "binding", "value", "scope",
/// "scope_id", "rule", "created", "note", "description"}], "errors": [...]}.
HttpResponse listApprovals(store::ServiceStore& store);

/// POST /v1/approvals/revoke with one approval as listed: {"removed": N}
/// (404 when nothing granted that).
HttpResponse revokeApproval(store::ServiceStore& store, const HttpRequest& request,
                            const Caller& caller);

}  // namespace toolguard::serve
