#pragma once
// Internal: `toolguard serve`'s routes over a store: /v1/check, the asks and
// their answers, the audit, the approvals, the web queue, /healthz and /metrics, with bearer tokens
// and the limits against a misbehaving client. Stateless: everything shared lives in the store, so
// instances behind a load balancer answer alike.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "serve/http_server.hpp"
#include "serve/serve_metrics.hpp"
#include "store/service_store.hpp"
#include "toolguard/guard.hpp"

namespace toolguard::serve {

/// What the service is started with.
struct ServiceOptions {
  std::vector<std::filesystem::path> policy_files;  ///< --policy, over the built-in policy
  std::vector<std::string> profiles;                ///< --profile
  bool builtin = true;
  std::chrono::seconds max_wait{600};                ///< the longest an ask may wait for a person
  size_t max_pending_asks_per_token = 20;            ///< more asks from one token are denied
  double requests_per_second_per_token = 2000;       ///< past it, 429
  std::chrono::seconds session_lifetime{12 * 3600};  ///< a web queue sign-in lasts this long
  size_t max_waiting_polls = 128;  ///< long polls of the queue held at once (a quarter per token)
  std::string ask_webhook;         ///< POSTed a notice of each new ask ("" none)
  std::string ask_webhook_secret;  ///< signs each notice (HMAC-SHA256; "" unsigned)
  std::string public_url;          ///< the web queue as people reach it, for the notice's link
  /// --two-person: an answer must come from a second person, shown by the
  /// tokens' owners: refused from the asking token, from a token of the same
  /// owner, and whenever either token has no owner.
  bool two_person = false;
};

/// The service: answers HTTP requests; reloads its policy when told.
class Service {
 public:
  /// Loads the policy (throws PolicyError) over `store`.
  Service(ServiceOptions options, std::shared_ptr<store::ServiceStore> store);
  ~Service();

  /// Answers one request (the HttpServer's handler).
  HttpResponse handle(const HttpRequest& request);

  /// Answers `request` on the server's event thread when that waits for
  /// nothing (a person, a long poll, the network, a database query): a
  /// check that may not wait (on the database: of a remembered token, with
  /// no session, that no stored approval could change; its audit committed
  /// after), /healthz on the file store. nullopt hands it to a handler
  /// thread (handle()), with what was learned in `request.carried`.
  std::optional<HttpResponse> answerAtOnce(HttpRequest& request);

  /// Answers `request` from its head, before its body is read: a request
  /// to the API (/v1/..., /metrics, /ui/logout) without credentials is
  /// refused (401) and audited as any refusal is, so a client without a
  /// token cannot make the service read its body; so is a made-up token or
  /// session cookie once a flood of them has spent the store reads for
  /// unknown ones (Authenticator::refusedWithoutStore). nullopt otherwise.
  std::optional<HttpResponse> answerFromHead(HttpRequest& request);

  /// Loads the policy again; a policy that fails keeps the previous one
  /// serving. Returns the problem ("" when it loaded).
  std::string reloadPolicy();

  /// The policy files, for the file watch.
  const std::vector<std::filesystem::path>& policyFiles() const { return options_.policy_files; }

  struct Impl;

 private:
  ServiceOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace toolguard::serve
