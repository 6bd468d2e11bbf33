#pragma once
// Internal: GET /v1/audit, a page of the audit read from the store: its
// filters and bounds from the query.

#include "serve/http_server.hpp"
#include "store/service_store.hpp"

namespace toolguard::serve {

/// The most records one page returns (and its default).
inline constexpr size_t kMaxAuditPage = 1000;

/// The records of `store`'s audit that the query of `request` asks for
/// (since, until, tool, verdict, rule, agent, last), newest `last` of them;
/// 400 naming the argument that is malformed or over the page's bound.
HttpResponse auditPage(store::ServiceStore& store, const HttpRequest& request);

}  // namespace toolguard::serve
