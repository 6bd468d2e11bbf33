// Asks in the store's queue: made by the Guard's handler (waiting) or by a
// check with ?async=1, answered through /v1/asks/ID/answer. An answer is
// checked against what was offered, the first one wins on every instance,
// and "always" is remembered at once with the same entry the terminal
// prompt would have made.
#include "serve_asks.hpp"

#include <algorithm>

#include "approval/approval_matching.hpp"
#include "approval/service_answer.hpp"
#include "audit/audit_detail.hpp"
#include "front/call_json.hpp"
#include "serve/answer_rights.hpp"
#include "serve/json_response.hpp"
#include "serve/service_event.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

using SystemClock = std::chrono::system_clock;

struct ThreadAsk {
  bool set = false;
  Caller caller;
  std::chrono::steady_clock::time_point deadline;
  AskOrigin origin;
  const Engine* engine = nullptr;
  std::function<bool()> client_gone;
};
thread_local ThreadAsk t_ask;

// The scopes an "always" may be remembered in: those the call has an id for
// (session approvals live in the store, shared by every instance).
std::vector<ApprovalScope> scopesFor(const CallContext& context) {
  std::vector<ApprovalScope> scopes;
  for (ApprovalScope s : {ApprovalScope::Session, ApprovalScope::Project, ApprovalScope::Agent,
                          ApprovalScope::Global}) {
    if (scopeIdOf(s, context)) scopes.push_back(s);
  }
  return scopes;
}

nlohmann::json offerJson(const std::vector<ApprovalOption>& options,
                         const std::vector<ApprovalScope>& scopes, const Decision& decision) {
  nlohmann::json bindings = nlohmann::json::array();
  for (const ApprovalOption& o : options) {
    bindings.push_back(
        {{"binding", toString(o.binding)}, {"value", o.value}, {"description", o.description}});
  }
  nlohmann::json scope_names = nlohmann::json::array();
  for (ApprovalScope s : scopes) scope_names.push_back(toString(s));
  return {{"bindings", bindings}, {"scopes", scope_names}, {"rule", detail::askingRule(decision)}};
}

std::string tooManyAsks(const std::string& token, size_t most) {
  return "the token '" + token + "' already has " + std::to_string(most) +
         " asks waiting (the most it may)";
}

// The version of a list of asks, for ETag and If-None-Match: it changes
// whenever an ask comes or goes.
std::string versionOf(const std::vector<store::AskRecord>& asks) {
  std::string ids;
  for (const store::AskRecord& a : asks)
    ids += a.id + (a.state == store::AskState::Pending ? "p" : "s");
  return "\"" + std::to_string(asks.size()) + "-" + std::to_string(std::hash<std::string>{}(ids)) +
         "\"";
}

// The call an ask is about, read back from its record.
std::optional<ToolCall> callOf(const store::AskRecord& ask) {
  front::ParsedCall parsed = front::parseCall(ask.call, front::CallFormat::Toolguard, "/");
  return parsed.call;
}

}  // namespace

AskScope::AskScope(const Caller& caller, std::chrono::steady_clock::time_point deadline,
                   AskOrigin origin, const Engine* engine, std::function<bool()> client_gone) {
  t_ask = ThreadAsk{true, caller, deadline, std::move(origin), engine, std::move(client_gone)};
}

AskScope::~AskScope() {
  t_ask = ThreadAsk{};
}

StoreAskHandler::StoreAskHandler(store::ServiceStore& store, Metrics& metrics,
                                 size_t max_pending_per_token, std::chrono::seconds max_wait,
                                 size_t max_waiting_polls, bool two_person)
    : store_(store),
      metrics_(metrics),
      two_person_(two_person),
      max_pending_(max_pending_per_token),
      max_wait_(max_wait),
      max_polls_(std::max<size_t>(1, max_waiting_polls)) {}

bool StoreAskHandler::takeWaitingPlace(const std::string& token) {
  std::lock_guard<std::mutex> lock(waiting_mutex_);
  size_t& n = waiting_[token];
  if (n >= max_pending_) return false;
  ++n;
  return true;
}

void StoreAskHandler::releaseWaitingPlace(const std::string& token) {
  std::lock_guard<std::mutex> lock(waiting_mutex_);
  if (auto it = waiting_.find(token); it != waiting_.end() && --it->second == 0) waiting_.erase(it);
}

store::AskRecord StoreAskHandler::record(const ApprovalRequest& request, const Caller& caller,
                                         SystemClock::time_point expires, const Engine* engine,
                                         const AskOrigin& origin) {
  store::AskRecord a;
  a.id = request.decision.id;
  a.call = toJson(request.call);
  a.decision = front::decisionToJson(request.decision, request.call.tool);
  a.decision["detail"] = askDetail(request.call, request.decision, engine, origin,
                                   request.subject ? &request.subject->view() : nullptr);
  a.decision["tool_metadata"] = toJson(request.tool);
  a.offer = offerJson(request.options, request.scopes, request.decision);
  a.created = detail::formatAuditTime(SystemClock::now());
  a.expires = detail::formatAuditTime(expires);
  a.token = caller.name;
  a.owner = caller.owner;
  return a;
}

std::future<ApprovalAnswer> StoreAskHandler::ask(const ApprovalRequest& request) {
  std::promise<ApprovalAnswer> promise;
  auto nobody = [&](const std::string& why) {
    promise.set_value(detail::noServiceAnswer(why));
    return promise.get_future();
  };
  if (!t_ask.set) return nobody("no request to wait for an answer");
  const ThreadAsk mine = t_ask;
  const std::string& token = mine.caller.name;
  if (!takeWaitingPlace(token)) return nobody(tooManyAsks(token, max_pending_));
  struct Release {
    StoreAskHandler& self;
    const std::string& token;
    ~Release() { self.releaseWaitingPlace(token); }
  } release{*this, token};
  const auto now = std::chrono::steady_clock::now();
  const auto wait = std::chrono::ceil<std::chrono::seconds>(mine.deadline - now);
  if (store_.pendingAsksOf(token) >= max_pending_) {
    return nobody(tooManyAsks(token, max_pending_));
  }
  store::AskRecord a =
      record(request, mine.caller, SystemClock::now() + wait, mine.engine, mine.origin);
  a.watched = true;
  create(a);
  std::optional<store::AskRecord> got = awaitAnswer(a.id, mine.deadline, mine.client_gone);
  if (got && got->state == store::AskState::Expired && got->ended == store::kAskAskerGone) {
    return nobody(
        "the ask ended unanswered: its request was given up (the client closed the "
        "connection, or this instance lost the store)");
  }
  if (!got || got->state != store::AskState::Answered) {
    return nobody("no one answered within " + std::to_string(wait.count()) + " s; the ask expired");
  }
  const ApprovalAnswer result = detail::serviceAnswer(got->answer);
  promise.set_value(result);
  return promise.get_future();
}

store::AskRecord StoreAskHandler::queue(const ToolCall& call, const Decision& decision,
                                        const Engine& engine, const Caller& caller,
                                        std::chrono::seconds lifetime, const AskOrigin& origin) {
  if (store_.pendingAsksOf(caller.name) >= max_pending_) {
    throw TooManyAsks(tooManyAsks(caller.name, max_pending_));
  }
  // Viewed once, for the offer and the detail the page shows.
  const Policy& policy = engine.policy();
  auto subject = std::make_shared<const ViewedCall>(call, &engine.toolInfo(call.tool), std::nullopt,
                                                    policy.paths.pathOptions(),
                                                    &policy.paths.workspace_roots, nullptr);
  const CallView& view = subject->view();
  ApprovalRequest request{call,
                          decision,
                          view.tool().metadata,
                          detail::approvalOptions(view, decision),
                          scopesFor(call.context),
                          lifetime,
                          subject};
  store::AskRecord a = record(request, caller, SystemClock::now() + lifetime, &engine, origin);
  create(a);
  return a;
}

HttpResponse StoreAskHandler::route(
    const HttpRequest& request, const Caller& caller, const Engine& engine,
    const std::function<HttpResponse(const std::string&)>& forbidden) {
  const bool approver =
      caller.role == store::TokenRole::Approver || caller.role == store::TokenRole::Admin;
  if (request.path == "/v1/asks" && request.method == "POST") {
    if (caller.role != store::TokenRole::Agent && caller.role != store::TokenRole::Admin) {
      return forbidden("queue asks");
    }
    return askFromClient(request, caller, engine);
  }
  if (request.path == "/v1/asks") {
    if (request.method != "GET") return errorResponse(405, "GET /v1/asks, or POST an ask");
    if (!approver) return forbidden("list asks");
    return list(request, caller);
  }
  std::string rest = request.path.substr(std::string("/v1/asks/").size());
  const bool answering = rest.ends_with("/answer");
  if (answering) rest.resize(rest.size() - std::string("/answer").size());
  if (rest.empty() || rest.find('/') != std::string::npos) return errorResponse(404, "no such ask");
  if (answering) {
    if (request.method != "POST") return errorResponse(405, "POST an answer");
    if (!approver) return forbidden("answer asks");
    return answer(rest, request, caller, forbidden);
  }
  if (request.method != "GET") return errorResponse(405, "GET an ask");
  std::optional<store::AskRecord> a = store_.findAsk(rest);
  // An agent sees its own asks only (to poll them); no other's, not even whether they exist.
  if (!a || (!approver && a->token != caller.name)) return errorResponse(404, "no such ask");
  return jsonResponse(200, store::toJson(*a));
}

HttpResponse StoreAskHandler::answer(
    const std::string& id, const HttpRequest& request, const Caller& caller,
    const std::function<HttpResponse(const std::string&)>& forbidden) {
  StrictJson body = parseStrictJson(request.body, 8);
  if (!body.value || !body.value->is_object()) {
    return errorResponse(400, "the answer must be a JSON object" +
                                  (body.error.empty() ? std::string() : ": " + body.error));
  }
  const nlohmann::json& in = *body.value;
  const std::string kind =
      in.contains("answer") && in["answer"].is_string() ? in["answer"].get<std::string>() : "";
  if (kind != "allow_once" && kind != "always" && kind != "deny") {
    return errorResponse(400, "answer: allow_once, always or deny");
  }
  if (in.contains("note") && !in["note"].is_string()) return errorResponse(400, "note: a string");
  std::optional<store::AskRecord> ask = store_.findAsk(id);
  if (!ask) return errorResponse(404, "no such ask");
  if (std::string why = whyNotTheAnswerer(*ask, caller, two_person_); !why.empty()) {
    return forbidden("answer this ask: " + why);
  }
  nlohmann::json recorded{{"answer", kind},
                          {"note", in.value("note", "")},
                          {"by", caller.name},
                          {"at", detail::formatAuditTime(SystemClock::now())}};
  std::optional<ApprovalEntry> remember;
  if (kind == "always") {
    const nlohmann::json& bindings = ask->offer.value("bindings", nlohmann::json::array());
    std::optional<size_t> option;
    if (in.contains("binding") && in["binding"].is_number_unsigned()) {
      option = in["binding"].get<size_t>();
    } else if (in.contains("binding") && in["binding"].is_string()) {
      for (size_t i = 0; i < bindings.size(); ++i) {
        if (bindings[i].value("binding", "") == in["binding"].get<std::string>()) option = i;
      }
    } else if (!in.contains("binding")) {
      option = 0;  // the first offered: this exact call
    }
    if (!option || *option >= bindings.size()) {
      return errorResponse(400, "binding: one of those offered (" + bindings.dump() + ")");
    }
    const nlohmann::json& scopes = ask->offer.value("scopes", nlohmann::json::array());
    std::string scope_name = in.value("scope", scopes.empty() ? "" : scopes[0].get<std::string>());
    std::optional<ApprovalScope> scope = parseApprovalScope(scope_name);
    if (!scope || std::find(scopes.begin(), scopes.end(), scope_name) == scopes.end()) {
      return errorResponse(400, "scope: one of those offered (" + scopes.dump() + ")");
    }
    std::optional<ToolCall> call = callOf(*ask);
    std::optional<ApprovalBinding> binding =
        parseApprovalBinding(bindings[*option].value("binding", ""));
    if (!call || !binding) return errorResponse(500, "the ask's record cannot be read back");
    remember =
        ApprovalEntry{call->tool,
                      *binding,
                      bindings[*option].value("value", ""),
                      *scope,
                      scopeIdOf(*scope, call->context).value_or(""),
                      detail::formatAuditTime(SystemClock::now()),
                      "approved through serve by " + caller.name,
                      *binding == ApprovalBinding::ExactCall ? "" : ask->offer.value("rule", "")};
    recorded["option"] = *option;
    recorded["binding"] = toString(*binding);
    recorded["value"] = remember->value;
    recorded["scope"] = scope_name;
  }
  store::AnswerResult result = store_.answerAsk(id, recorded);
  if (result.recorded) changed();
  if (!result.recorded) {
    if (!result.ask) return errorResponse(404, "no such ask");
    if (result.ask->state == store::AskState::Expired &&
        result.ask->ended == store::kAskAskerGone) {
      // Nobody waits for this answer: it would allow a call nobody receives.
      return jsonResponse(410, {{"error",
                                 "the ask cannot be answered: the request that asked is gone (its "
                                 "client closed the connection, or its instance stopped or lost "
                                 "the store); nothing was allowed"},
                                {"ask", store::toJson(*result.ask)}});
    }
    nlohmann::json out{{"error", result.ask->state == store::AskState::Expired
                                     ? "the ask expired before it was answered"
                                     : "the ask was answered first by " +
                                           result.ask->answer.value("by", "someone")},
                       {"ask", store::toJson(*result.ask)}};
    return jsonResponse(409, out);
  }
  metrics_.askAnswered();
  // The answer's record first: an "always" is remembered only once its
  // record is kept (the decision it settles is audited by its own request).
  bool audited = true;
  try {
    nlohmann::json event = serviceEvent("ask-answered", caller.name);
    event["time"] = recorded["at"];
    event["ask"] = id;
    event["agent"] = ask->token;
    if (!caller.owner.empty()) event["owner"] = caller.owner;
    event["tool"] = ask->call.value("tool", "");
    event["verdict"] = kind == "deny" ? "deny" : "allow";
    event["answer"] = recorded;
    store_.audit()->writeRecord(event);
  } catch (const std::exception&) {
    metrics_.storeError();
    audited = false;
  }
  // An ask a program's own Guard sent (remoteApprovalHandler) is remembered
  // by that Guard, in its store, from the answer it gets back.
  if (remember && audited && ask->offer.value("remember", true)) {
    try {
      store_.approvals()->add(*remember);
    } catch (const std::exception&) {
      metrics_.storeError();
    }
  }
  return jsonResponse(200, store::toJson(*result.ask));
}

HttpResponse StoreAskHandler::askFromClient(const HttpRequest& request, const Caller& caller,
                                            const Engine& engine) {
  StrictJson body = parseStrictJson(request.body);
  if (!body.value || !body.value->is_object()) {
    return errorResponse(400, "the ask must be a JSON object" +
                                  (body.error.empty() ? std::string() : ": " + body.error));
  }
  const nlohmann::json& in = *body.value;
  if (!in.contains("call")) return errorResponse(400, "call: required, a call as check takes it");
  front::ParsedCall parsed = front::parseCall(in["call"], front::CallFormat::Toolguard, "/");
  if (!parsed.call) return errorResponse(400, "call: " + parsed.error);
  if (!in.contains("decision") || !in["decision"].is_object()) {
    return errorResponse(400, "decision: required, an object (verdict, reason, rule)");
  }
  for (const char* key : {"verdict", "reason", "rule"}) {
    const nlohmann::json& d = in["decision"];
    if (d.contains(key) && !d[key].is_string() && !d[key].is_null()) {
      return errorResponse(400, std::string("decision.") + key + ": a string");
    }
  }
  // What the asking program says its tool is (shown on the card beside its
  // other claims): only the known fields, each of its type.
  nlohmann::json tool_metadata;
  if (in.contains("tool_metadata")) {
    const nlohmann::json& m = in["tool_metadata"];
    if (!m.is_object()) return errorResponse(400, "tool_metadata: an object");
    for (const char* key : {"category", "side_effect", "risk"}) {
      if (!m.contains(key)) continue;
      if (!m[key].is_string())
        return errorResponse(400, std::string("tool_metadata.") + key + ": a string");
      tool_metadata[key] = m[key];
    }
    if (m.contains("read_only")) {
      if (!m["read_only"].is_boolean())
        return errorResponse(400, "tool_metadata.read_only: true or false");
      tool_metadata["read_only"] = m["read_only"];
    }
  }
  const nlohmann::json offer = in.value("offer", nlohmann::json::object());
  const nlohmann::json& bindings = offer.value("bindings", nlohmann::json::array());
  const nlohmann::json& scopes = offer.value("scopes", nlohmann::json::array());
  if (!bindings.is_array() || bindings.empty() || bindings.size() > 16) {
    return errorResponse(400, "offer.bindings: 1 to 16 bindings");
  }
  for (const nlohmann::json& b : bindings) {
    if (!b.is_object() || !b.contains("binding") || !b["binding"].is_string() ||
        !parseApprovalBinding(b["binding"].get<std::string>()) || !b.contains("value") ||
        !b["value"].is_string()) {
      return errorResponse(400,
                           "offer.bindings: each {\"binding\": exact|pattern|tool, \"value\", "
                           "\"description\"}");
    }
  }
  if (!scopes.is_array() || scopes.size() > 4) return errorResponse(400, "offer.scopes: an array");
  for (const nlohmann::json& sc : scopes) {
    if (!sc.is_string() || !parseApprovalScope(sc.get<std::string>())) {
      return errorResponse(400, "offer.scopes: session, project, agent or global");
    }
  }
  if (!in.contains("wait") || !in["wait"].is_number_unsigned() || in["wait"].get<long>() < 1) {
    return errorResponse(400, "wait: seconds to wait for an answer, at least 1");
  }
  const auto wait = std::min(std::chrono::seconds(in["wait"].get<long>()), max_wait_);
  if (!takeWaitingPlace(caller.name)) {
    return errorResponse(429, tooManyAsks(caller.name, max_pending_));
  }
  struct Release {
    StoreAskHandler& self;
    const std::string& token;
    ~Release() { self.releaseWaitingPlace(token); }
  } release{*this, caller.name};
  if (store_.pendingAsksOf(caller.name) >= max_pending_) {
    return errorResponse(429, tooManyAsks(caller.name, max_pending_));
  }
  ToolCall call = std::move(*parsed.call);
  call.context.agent = caller.name;
  store::AskRecord a;
  a.id = detail::randomAuditId();
  a.call = toJson(call);
  a.decision = in["decision"];
  if (!tool_metadata.is_null()) a.decision["tool_metadata"] = std::move(tool_metadata);
  a.offer = {{"bindings", bindings},
             {"scopes", scopes},
             {"rule", offer.value("rule", "")},
             {"remember", false}};
  a.created = detail::formatAuditTime(SystemClock::now());
  a.expires = detail::formatAuditTime(SystemClock::now() + wait);
  a.token = caller.name;
  a.owner = caller.owner;
  a.watched = true;
  // The parsed commands and paths as the service reads the call (no
  // findings: the asking program's policy judged it, not this one).
  a.decision["detail"] = askDetail(call, Decision{}, &engine,
                                   AskOrigin{request.header("x-toolguard-machine"), request.peer});
  create(a);
  std::optional<store::AskRecord> got =
      awaitAnswer(a.id, std::chrono::steady_clock::now() + wait, request.client_gone);
  if (!got) return errorResponse(500, "the ask went missing from the store");
  return jsonResponse(200, store::toJson(*got));
}

void StoreAskHandler::create(store::AskRecord& ask) {
  store_.createAsk(ask);
  changed();
  if (!on_new_ask_) return;
  try {
    on_new_ask_(ask);  // a notice that fails never fails the ask
  } catch (const std::exception&) {
    metrics_.storeError();
  }
}

void StoreAskHandler::changed() {
  std::lock_guard<std::mutex> lock(change_mutex_);
  ++changes_;
  change_.notify_all();
}

std::optional<store::AskRecord> StoreAskHandler::awaitAnswer(
    const std::string& id, std::chrono::steady_clock::time_point deadline,
    const std::function<bool()>& client_gone) {
  using Steady = std::chrono::steady_clock;
  // The client is looked at every second; the store is told every
  // kAskHeartbeat that this request still waits.
  auto beat = Steady::now() + store::kAskHeartbeat;
  std::optional<store::AskRecord> got;
  std::string ended = store::kAskTimedOut;
  for (;;) {
    got = store_.waitForAsk(id, std::min(deadline, Steady::now() + std::chrono::seconds(1)));
    if (!got || got->state != store::AskState::Pending) return got;
    const auto now = Steady::now();
    if (now >= deadline) break;
    if (client_gone && client_gone()) {
      ended = store::kAskAskerGone;
      break;
    }
    if (now >= beat) {
      beat = now + store::kAskHeartbeat;
      try {
        store_.heartbeatAsk(id);  // false: no longer pending (seen next round) or stale
      } catch (const std::exception&) {
        metrics_.storeError();  // the heartbeat goes stale: nobody can answer it
      }
    }
  }
  if (store_.expireAsk(id, ended)) {
    got->state = store::AskState::Expired;
    got->ended = ended;
    changed();
  } else {
    got = store_.findAsk(id);  // answered just as it expired: the answer wins
  }
  return got;
}

bool StoreAskHandler::takePollPlace(const std::string& token) {
  std::lock_guard<std::mutex> lock(change_mutex_);
  size_t& mine = polls_of_[token];
  if (polls_ >= max_polls_ || mine >= std::max<size_t>(1, max_polls_ / 4)) {
    if (mine == 0) polls_of_.erase(token);
    return false;
  }
  ++polls_;
  ++mine;
  return true;
}

void StoreAskHandler::releasePollPlace(const std::string& token) {
  std::lock_guard<std::mutex> lock(change_mutex_);
  --polls_;
  if (auto it = polls_of_.find(token); it != polls_of_.end() && --it->second == 0) {
    polls_of_.erase(it);
  }
}

HttpResponse StoreAskHandler::list(const HttpRequest& request, const Caller& caller) {
  std::optional<store::AskState> state;
  if (const std::string s = request.arg("state"); !s.empty()) {
    state = store::parseAskState(s);
    if (!state) return errorResponse(400, "state: pending, answered or expired");
  }
  long wait = 0;
  if (const std::string w = request.arg("wait"); !w.empty()) {
    if (w.size() > 3 || w.find_first_not_of("0123456789") != std::string::npos) {
      return errorResponse(400, "wait: a whole number of seconds (at most 60)");
    }
    wait = std::min(std::stol(w), 60L);
  }
  // A long poll: held while the list is the one the client has, until it
  // changes or `wait` passes (304). This instance's changes wake it at once;
  // another instance's are seen within a second.
  const std::string known = request.header("if-none-match");
  // Each waiting poll holds a connection's thread: only so many wait at
  // once (a quarter of them for one token); the others are answered now.
  const bool holding = wait > 0 && !known.empty() && takePollPlace(caller.name);
  const bool turned_away = wait > 0 && !known.empty() && !holding;
  if (!holding) wait = 0;
  struct Release {
    StoreAskHandler& self;
    const std::string& token;
    bool holding;
    ~Release() {
      if (holding) self.releasePollPlace(token);
    }
  } release{*this, caller.name, holding};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait);
  for (;;) {
    unsigned long seen;
    {
      std::lock_guard<std::mutex> lock(change_mutex_);
      seen = changes_;
    }
    std::vector<store::AskRecord> asks = store_.listAsks(state, 500);
    const std::string version = versionOf(asks);
    const auto now = std::chrono::steady_clock::now();
    if (version != known || now >= deadline) {
      HttpResponse r;
      if (version == known) {
        r.status = 304;
        r.content_type.clear();
      } else {
        nlohmann::json out = nlohmann::json::array();
        for (const store::AskRecord& a : asks) out.push_back(store::toJson(a));
        r = jsonResponse(200, out);
      }
      r.headers.emplace_back("ETag", version);
      if (turned_away) r.headers.emplace_back("Retry-After", "2");  // no place to wait: come back
      r.headers.emplace_back("Cache-Control", "no-store");
      return r;
    }
    std::unique_lock<std::mutex> lock(change_mutex_);
    change_.wait_until(lock, std::min(deadline, now + std::chrono::seconds(1)),
                       [&] { return changes_ != seen; });
  }
}

}  // namespace toolguard::serve
