// `toolguard serve`'s routes. A check runs through a Guard whose approvals
// and audit are the store's; an ask that may wait goes to the store's queue
// through StoreAskHandler (serve_asks.cpp), and the answer given on any
// instance settles it through the same approval code as the terminal prompt.
#include "serve_service.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <optional>
#include <utility>

#include "audit/audit_detail.hpp"
#include "front/call_front.hpp"
#include "front/result_hook.hpp"
#include "guard/overrule.hpp"
#include "serve/audit_page.hpp"
#include "serve/deferred_audit.hpp"
#include "serve/json_response.hpp"
#include "serve/serve_approvals.hpp"
#include "serve/serve_asks.hpp"
#include "serve/serve_auth.hpp"
#include "serve/serve_session.hpp"
#include "serve/serve_web.hpp"
#include "serve/serve_webhook.hpp"
#include "store/token_names.hpp"
#include "toolguard/policy_loader.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

using Clock = std::chrono::steady_clock;

std::optional<front::CallFormat> formatNamed(const std::string& name) {
  if (name.empty() || name == "toolguard") return front::CallFormat::Toolguard;
  if (name == "claude") return front::CallFormat::Claude;
  if (name == "gemini") return front::CallFormat::Gemini;
  if (name == "gemini-hook") return front::CallFormat::GeminiHook;
  return std::nullopt;
}

// A session belongs to the token that calls: the key a hook format gives
// it (Claude Code's session_id) is taken into the token's own, so that two
// tokens naming one session id never share what it saw.
void tokensSession(ToolCall& call, const Caller& caller) {
  if (!call.context.session_key.empty()) {
    call.context.session_key =
        SessionStore::keyOf("serve-token:" + caller.name, call.context.session_key);
  }
}

// An admin may do everything; another token what its role is listed for.
bool roleMay(const Caller& caller, std::initializer_list<store::TokenRole> roles) {
  if (caller.role == store::TokenRole::Admin) return true;
  return std::find(roles.begin(), roles.end(), caller.role) != roles.end();
}

// Whether a check on the database can be decided on the event thread:
// only when nothing but its audit would be waited for (no session to read
// or write, no validator, and for an ask no approval handler and its stored
// approvals known without the database: none for its scopes).
bool decidesWithoutWaiting(const Guard& guard, const ToolCall& call, const Decision* assessed) {
  const GuardOptions& o = guard.options();
  if (o.validator || o.llm_validator || o.rate_limit_store) return false;
  if (!assessed) return !o.sessions || sessionKeyOf(call).empty();
  switch (assessed->verdict) {
    case Verdict::Allow:
    case Verdict::Deny:
    case Verdict::Abort:
      return true;
    case Verdict::Ask:
    case Verdict::Escalate:  // an ask without an LLM validator
      return !o.approval_handler && (!o.store || o.store->lookupNow(call.context).has_value());
  }
  return false;
}

}  // namespace

struct Service::Impl {
  ServiceOptions options;
  std::shared_ptr<store::ServiceStore> store;
  Metrics metrics;
  Authenticator auth;
  std::shared_ptr<StoreAskHandler> asks;
  WebSessions web;
  std::unique_ptr<AskWebhook> webhook;
  // On the database: the Guards' records, committed after the decision
  // while no thread waits (nullptr on the file store, written in place).
  std::shared_ptr<DeferredAudit> deferred_audit;

  // Audit writes whose completion still refers to this service: it is not
  // destroyed before the store's writer has called back for each.
  std::mutex in_flight_mutex;
  std::condition_variable in_flight_done;
  size_t in_flight = 0;

  // The Guards of the policy now serving: one whose asks wait in the queue,
  // one that reports them (wait=0). Swapped whole on reload.
  struct Guards {
    std::shared_ptr<Guard> waiting;
    std::shared_ptr<Guard> reporting;
  };
  std::mutex guards_mutex;
  std::shared_ptr<const Guards> guards;

  Impl(ServiceOptions o, std::shared_ptr<store::ServiceStore> s)
      : options(std::move(o)),
        store(std::move(s)),
        auth(*store, metrics, options.requests_per_second_per_token, originOf(options.public_url)),
        asks(std::make_shared<StoreAskHandler>(*store, metrics, options.max_pending_asks_per_token,
                                               options.max_wait, options.max_waiting_polls,
                                               options.two_person)),
        web(*store, auth, options.session_lifetime, originOf(options.public_url)) {
    if (!options.ask_webhook.empty()) {
      webhook = std::make_unique<AskWebhook>(options.ask_webhook, options.public_url,
                                             options.ask_webhook_secret);
      asks->onNewAsk([w = webhook.get()](const store::AskRecord& ask) { w->notify(ask); });
    }
    if (!store->local()) deferred_audit = std::make_shared<DeferredAudit>(store->audit());
  }

  ~Impl() {
    std::unique_lock<std::mutex> lock(in_flight_mutex);
    in_flight_done.wait(lock, [&] { return in_flight == 0; });
  }

  // Where the Guards write: the deferred audit on the database.
  std::shared_ptr<AuditSink> auditSink() {
    if (deferred_audit) return deferred_audit;
    return store->audit();
  }

  void startedInFlight() {
    std::lock_guard<std::mutex> lock(in_flight_mutex);
    ++in_flight;
  }

  // The last thing a completion does: after it, `this` may be gone.
  void endedInFlight() {
    std::lock_guard<std::mutex> lock(in_flight_mutex);
    if (--in_flight == 0) in_flight_done.notify_all();
  }

  std::shared_ptr<const Guards> current() {
    std::lock_guard<std::mutex> lock(guards_mutex);
    return guards;
  }

  void load() {
    PolicySources sources;
    sources.builtin = options.builtin;
    sources.profiles = options.profiles;
    sources.explicit_files = options.policy_files;
    Policy policy = loadPolicy(sources);
    // What a session saw is the store's: a session whose calls reach
    // several instances is one session.
    SessionStoreOptions session_settings;
    session_settings.max_events = policy.sessions.max_events;
    session_settings.expire_after = policy.sessions.expire_after;
    std::shared_ptr<SessionRepository> sessions = store->agentSessions(session_settings);
    Engine engine(std::move(policy));
    GuardOptions waiting;
    waiting.sessions = std::move(sessions);
    waiting.store = store->approvals();
    waiting.audit_log = auditSink();
    waiting.store_session_approvals = true;  // every instance sees them
    waiting.approval_handler = asks;
    // The handler keeps to each request's own deadline; this only backs it.
    waiting.approval_timeout = options.max_wait + std::chrono::seconds(30);
    GuardOptions reporting = waiting;
    reporting.approval_handler = nullptr;
    reporting.report_ask = true;
    auto next = std::make_shared<Guards>();
    next->waiting = std::make_shared<Guard>(engine, waiting);
    next->reporting = std::make_shared<Guard>(std::move(engine), reporting);
    std::lock_guard<std::mutex> lock(guards_mutex);
    guards = std::move(next);
  }

  // Answers a check. With `may_wait` false (the event thread), nullopt when
  // deciding it would wait for the store (beyond its audit).
  std::optional<HttpResponse> check(const HttpRequest& request, const Caller& caller,
                                    bool may_wait) {
    const auto started = Clock::now();
    if (request.method != "POST") return errorResponse(405, "POST a call to /v1/check");
    std::optional<front::CallFormat> format = formatNamed(request.arg("format"));
    if (!format) {
      return errorResponse(400, "format: unknown '" + request.arg("format") +
                                    "' (toolguard, claude, gemini or gemini-hook)");
    }
    std::optional<long> wait = request.wholeNumberArg("wait");
    if (!wait) return errorResponse(400, "wait: a whole number of seconds");
    const bool async = request.arg("async") == "1" || request.arg("async") == "true";
    const long waited = std::min<long>(*wait, options.max_wait.count());
    if (!may_wait && (waited > 0 || async)) return std::nullopt;
    std::shared_ptr<const Guards> g = current();
    const std::shared_ptr<Guard> guard = waited > 0 ? g->waiting : g->reporting;
    front::GuardSource guards;
    guards.audit_log = auditSink();
    guards.guard_for = [&guard](const ToolCall&) { return guard; };
    if (!may_wait) guards.decides_here = decidesWithoutWaiting;
    front::InputOptions input;
    input.format = *format;
    input.format_name = request.arg("format").empty() ? "toolguard" : request.arg("format");
    // Where a call without a cwd was made: the client's directory (check
    // --server sends it), else the root.
    const std::string client_cwd = request.arg("cwd");
    input.default_cwd = client_cwd.starts_with('/') ? client_cwd : "/";
    input.adjust = [&](ToolCall& call) {
      // The token's name is the agent: never one the request claims. A
      // session belongs to its agent: another token naming the same session
      // id must not reach its "always for this session" approvals, so the
      // session is the tuple (token, session), never a joined string two
      // pairs could share.
      call.context.agent = caller.name;
      if (!call.context.session.empty())
        call.context.session = store::sessionKey(caller.name, call.context.session);
      tokensSession(call, caller);
      if (waited > 0)
        call.context.mode = InteractionMode::Interactive;  // the queue reaches a person
    };
    // Claude Code's PostToolUse and Gemini CLI's AfterTool: a result, told
    // to the user and the model and remembered by the token's session.
    if (std::optional<Expected<front::ResultHook>> result =
            front::readResultHook(request.body, *format, input.default_cwd)) {
      if (!may_wait) return std::nullopt;  // the session is written in the store
      if (!*result) return errorResponse(400, "invalid hook input: " + result->error());
      front::ResultHook& hook = **result;
      input.adjust(hook.call);
      std::string problem;
      front::ResultSinks sinks;
      sinks.sessions = g->reporting->options().sessions.get();
      sinks.audit = guards.audit_log.get();
      sinks.via = "serve";
      nlohmann::json answer = front::answerResultHook(hook, *format, sinks, problem);
      if (!problem.empty()) {
        // What the session learned is lost: the hook fails (Claude Code
        // shows why) rather than later calls being judged without it.
        metrics.storeError();
        std::fprintf(stderr, "toolguard serve: %s\n", problem.c_str());
        return errorResponse(503, "the result's findings could not be kept");
      }
      return jsonResponse(200, answer);
    }
    const AskOrigin origin{request.header("x-toolguard-machine"), request.peer};
    // On the database the records are committed after the decision, with
    // others in one group, while no thread waits (an async ask is queued
    // after its record is kept).
    const bool defer = deferred_audit && !async;
    auto r = std::make_shared<front::FrontDecision>();
    std::vector<PreparedAuditRecord> records;
    // A session's append (on the database) commits with the call's record.
    std::vector<store::GroupedWrite> writes;
    {
      AskScope scope(caller, Clock::now() + std::chrono::seconds(waited), origin,
                     &g->waiting->engine(), request.client_gone);
      std::optional<DeferredAudit::Capture> capture;
      std::optional<store::GroupedWrites> grouped;
      if (defer) capture.emplace();
      if (defer && deferred_audit->groupsWrites()) grouped.emplace();
      *r = front::decideInput(request.body, input, guards);
      if (capture) records = std::move(capture->records);
      if (grouped) writes = std::exchange(grouped->writes, {});
    }
    if (r->outcome == front::FrontDecision::Outcome::Deferred) {
      store::loseAll(writes);  // decided again where it may wait
      return std::nullopt;
    }
    if (!r->audit_problem.empty()) metrics.storeError();
    if (defer) {
      // Answered once its records are kept; a record that is not denies.
      auto later = std::make_shared<LaterAnswer>();
      // The answer is made here, not on the writer's thread: it is sent as
      // it is once the records are kept, made again only if they are not.
      auto answer = std::make_shared<HttpResponse>(answerOf(*r, *format, nullptr));
      startedInFlight();
      deferred_audit->writeAllThen(
          std::move(records), std::move(writes),
          [this, later, r, answer, format = *format, started](std::exception_ptr failed) {
            try {
              if (failed) {
                auditFailed(*r, detail::auditFailureText(failed));
                *answer = answerOf(*r, format, nullptr);
              }
              counted(*r, started);
              later->complete(std::move(*answer));
            } catch (...) {
              try {
                later->complete(errorResponse(500, "internal error"));
              } catch (...) {
                // Nothing more can be said; the connection is answered at stop.
              }
            }
            endedInFlight();
          });
      HttpResponse out;
      out.later = std::move(later);
      return out;
    }
    nlohmann::json ask_link;
    if (async && waited == 0 && r->call && r->outcome == front::FrontDecision::Outcome::Decided &&
        r->decision.verdict == Verdict::Ask) {
      try {
        store::AskRecord ask = asks->queue(*r->call, r->decision, g->reporting->engine(), caller,
                                           std::chrono::seconds(options.max_wait), origin);
        ask_link = {{"id", ask.id}, {"expires", ask.expires}};
      } catch (const TooManyAsks& e) {
        return errorResponse(429, e.what());
      } catch (const std::exception& e) {
        return storeFailed(e, caller);
      }
    }
    counted(*r, started);
    return answerOf(*r, *format, ask_link.is_null() ? nullptr : &ask_link);
  }

  // The audit of a decision made on the database failed after it was
  // decided: the call is denied (fail closed) and the reason says why.
  void auditFailed(front::FrontDecision& r, const std::string& why) {
    metrics.storeError();
    std::fprintf(stderr, "toolguard serve: %s\n", why.c_str());
    if (r.outcome == front::FrontDecision::Outcome::Decided) {
      detail::denyAfterFailure(r.decision, why);
    } else {
      r.decision.reason += "; " + why;
      r.error += "; " + why;
    }
    r.audit_problem = why;
  }

  // The answer to a call decided (or input refused); `ask_link` names the
  // ask queued for it (async).
  HttpResponse answerOf(const front::FrontDecision& r, front::CallFormat format,
                        const nlohmann::json* ask_link) {
    if (r.outcome == front::FrontDecision::Outcome::Malformed) {
      // Text that is not exactly one JSON value (bytes after it, a NUL, a
      // second call) is refused whole: never judged by a part of it.
      if (format != front::CallFormat::Toolguard) {
        return errorResponse(400, "invalid hook input: " + r.error);
      }
      if (r.not_json) return errorResponse(400, "invalid call: " + r.error);
      return jsonResponse(200, front::renderDecision(r.decision, "", format));
    }
    if (!r.call) {  // not judged, with no call read: the front's internal error
      return jsonResponse(200, front::renderDecision(r.decision, "", format));
    }
    const Decision& d = r.decision;
    if (format == front::CallFormat::Toolguard && ask_link == nullptr) {
      // The usual answer, written straight to text (the same bytes as the
      // JSON below, without building it).
      HttpResponse response;
      response.body = front::decisionJsonLine(d, r.call->tool);
      response.body += '\n';
      return response;
    }
    nlohmann::json out = front::renderDecision(d, r.call->tool, format);
    if (ask_link && format == front::CallFormat::Toolguard) out["ask"] = *ask_link;
    return jsonResponse(200, out);
  }

  // Counts a decision answered (a call judged) in the metrics.
  void counted(const front::FrontDecision& r, Clock::time_point started) {
    if (r.outcome == front::FrontDecision::Outcome::Malformed || !r.call) return;
    metrics.decision(std::string(toString(r.decision.verdict)), r.decision.rule_id,
                     std::chrono::duration<double>(Clock::now() - started).count());
  }

  // A flood of refused requests (random tokens) must not fill the audit:
  // at most 50 refusal records a second; /metrics counts them all.
  std::mutex refusals_mutex;
  std::chrono::steady_clock::time_point refusal_second;
  int refusals_this_second = 0;

  void auditRefusal(const nlohmann::json& record) {
    {
      std::lock_guard<std::mutex> lock(refusals_mutex);
      const auto now = Clock::now();
      if (now - refusal_second >= std::chrono::seconds(1)) {
        refusal_second = now;
        refusals_this_second = 0;
      }
      if (++refusals_this_second > 50) return;
    }
    audit(record);
  }

  // A refusal's record: the refusal does not wait for it (on the database
  // it is committed with the next group).
  void audit(const nlohmann::json& record) {
    startedInFlight();
    store->audit()->writeRecordThen(record, [this](std::exception_ptr failed) {
      if (failed) metrics.storeError();
      endedInFlight();
    });
  }

  // The store failed: an admin reads why; anyone else only that the
  // service is unavailable (the log and /metrics say the rest).
  HttpResponse storeFailed(const std::exception& e, const std::optional<Caller>& caller) {
    metrics.storeError();
    std::fprintf(stderr, "toolguard serve: the store failed: %s\n", e.what());
    HttpResponse r =
        errorResponse(503, caller && caller->role == store::TokenRole::Admin
                               ? std::string("service unavailable: the store failed: ") + e.what()
                               : std::string("service unavailable"));
    r.headers.emplace_back("Retry-After", "1");
    return r;
  }

  HttpResponse route(const HttpRequest& request, std::optional<Caller>& caller) {
    const std::string& path = request.path;
    if (path == "/healthz") {
      try {
        store->tokens();
        return jsonResponse(200, {{"status", "ok"}});
      } catch (const std::exception&) {
        // Why is in the service's log and /metrics, not for anyone who asks.
        metrics.storeError();
        return jsonResponse(503, {{"status", "store unavailable"}});
      }
    }
    // The web queue's page needs no token; signing in takes one.
    if (std::optional<HttpResponse> page = pageAsset(request)) return *page;
    if (path == "/ui/session" && request.method == "POST") {
      HttpResponse r = web.signIn(request);
      if (r.status >= 400) auditRefusal(auth.refusalRecord(request, r));
      return r;
    }
    if (path == "/ui/session" && sessionCookie(request).empty() &&
        request.header("authorization").empty()) {
      return errorResponse(401, "not signed in");  // the page's first look: not worth an audit line
    }
    if (request.carried) {
      // Authenticated on the event thread, which handed the check over.
      caller = *std::static_pointer_cast<const Caller>(request.carried);
    } else if (HttpResponse refused; !(caller = auth.authenticate(request, refused))) {
      auditRefusal(auth.refusalRecord(request, refused));
      return refused;
    }
    // An admin may do everything; the others what their role names.
    auto allowed = [&](std::initializer_list<store::TokenRole> roles) {
      return roleMay(*caller, roles);
    };
    auto forbidden = [&](const std::string& what) {
      metrics.refused(403);
      HttpResponse r =
          errorResponse(403, "the token '" + caller->name + "' (" +
                                 std::string(store::toString(caller->role)) + ") may not " + what);
      auditRefusal(auth.refusalRecord(request, r));
      return r;
    };
    if (path == "/v1/check") {
      if (!allowed({store::TokenRole::Agent})) return forbidden("check calls");
      return *check(request, *caller, true);
    }
    if (path == "/metrics") {
      if (!allowed({})) return forbidden("read the metrics");
      long pending = -1;
      try {
        pending = static_cast<long>(store->listAsks(store::AskState::Pending, 0).size());
      } catch (const std::exception&) {
        metrics.storeError();
      }
      HttpResponse r;
      r.content_type = "text/plain; version=0.0.4";
      r.body = metrics.render(pending);
      return r;
    }
    if (path == "/ui/session") {
      if (request.method != "GET") return errorResponse(405, "GET or POST /ui/session");
      return WebSessions::whoAmI(*caller);
    }
    if (path == "/ui/logout") {
      if (request.method != "POST") return errorResponse(405, "POST /ui/logout");
      return web.signOut(request, *caller);
    }
    if (path == "/v1/audit") {
      if (!allowed({store::TokenRole::Approver})) return forbidden("read the audit");
      return auditPage(*store, request);
    }
    if (path == "/v1/approvals") {
      if (!allowed({store::TokenRole::Approver})) return forbidden("list approvals");
      if (request.method != "GET") return errorResponse(405, "GET /v1/approvals");
      return listApprovals(*store);
    }
    if (path == "/v1/approvals/revoke") {
      if (!allowed({store::TokenRole::Approver})) return forbidden("revoke approvals");
      if (request.method != "POST") return errorResponse(405, "POST /v1/approvals/revoke");
      return revokeApproval(*store, request, *caller);
    }
    if (path == "/v1/asks" || path.starts_with("/v1/asks/")) {
      return asks->route(request, *caller, current()->reporting->engine(),
                         [&](const std::string& what) { return forbidden(what); });
    }
    return errorResponse(404, "no such endpoint: " + path);
  }
};

Service::Service(ServiceOptions options, std::shared_ptr<store::ServiceStore> store)
    : options_(options), impl_(std::make_unique<Impl>(std::move(options), std::move(store))) {
  impl_->load();
}

Service::~Service() = default;

HttpResponse Service::handle(const HttpRequest& request) {
  std::optional<Caller> caller;
  try {
    return impl_->route(request, caller);
  } catch (const store::StoreError& e) {
    return impl_->storeFailed(e, caller);
  }
}

std::optional<HttpResponse> Service::answerAtOnce(HttpRequest& request) {
  Impl& impl = *impl_;
  const bool local = impl.store->local();
  if (request.path == "/healthz") {
    if (!local) return std::nullopt;  // a database query: never on the event thread
    return handle(request);
  }
  if (request.path != "/v1/check") return std::nullopt;
  const std::string wait = request.arg("wait");
  if (!(wait.empty() || wait == "0") || !request.arg("async").empty()) return std::nullopt;
  if (local) return handle(request);
  // The database: only a check that its remembered tokens authenticate,
  // decided by the engine alone; its audit record is committed later.
  std::optional<Caller> caller;
  try {
    HttpResponse refused;
    bool must_wait = false;
    caller = impl.auth.authenticateNow(request, refused, must_wait);
    if (!caller) {
      if (must_wait) return std::nullopt;
      impl.auditRefusal(impl.auth.refusalRecord(request, refused));
      return refused;
    }
    if (!roleMay(*caller, {store::TokenRole::Agent})) {
      request.carried = std::make_shared<const Caller>(*caller);  // refused there, audited
      return std::nullopt;
    }
    std::optional<HttpResponse> answer = impl.check(request, *caller, false);
    if (!answer) request.carried = std::make_shared<const Caller>(*caller);
    return answer;
  } catch (const store::StoreError& e) {
    return impl.storeFailed(e, caller);
  }
}

std::optional<HttpResponse> Service::answerFromHead(HttpRequest& request) {
  const std::string& path = request.path;
  const bool needs_caller = path.starts_with("/v1/") || path == "/metrics" || path == "/ui/logout";
  if (!needs_caller) return std::nullopt;
  if (!presentsCredentials(request)) {
    return handle(request);  // refused there, before anything reads the (empty) body
  }
  // A made-up token or cookie, once a flood of them has spent the store
  // reads for unknown ones, is refused as it would be after its body.
  HttpResponse refused;
  if (!impl_->auth.refusedWithoutStore(request, refused)) return std::nullopt;
  impl_->auditRefusal(impl_->auth.refusalRecord(request, refused));
  return refused;
}

std::string Service::reloadPolicy() {
  try {
    impl_->load();
    impl_->metrics.policyReload(true);
    return "";
  } catch (const std::exception& e) {
    impl_->metrics.policyReload(false);
    return e.what();
  }
}

}  // namespace toolguard::serve
