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
#include "cli/call_json.hpp"
#include "serve/json_response.hpp"
#include "toolguard/call_view.hpp"
#include "toolguard/policy.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::serve {
namespace {

using SystemClock = std::chrono::system_clock;

struct ThreadAsk {
  bool set = false;
  std::string token;
  std::chrono::steady_clock::time_point deadline;
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

// The call an ask is about, read back from its record.
std::optional<ToolCall> callOf(const store::AskRecord& ask) {
  cli::ParsedCall parsed = cli::parseCall(ask.call, cli::CallFormat::Toolguard, "/");
  return parsed.call;
}

}  // namespace

AskScope::AskScope(std::string token, std::chrono::steady_clock::time_point deadline) {
  t_ask = ThreadAsk{true, std::move(token), deadline};
}

AskScope::~AskScope() {
  t_ask = ThreadAsk{};
}

StoreAskHandler::StoreAskHandler(store::ServiceStore& store, Metrics& metrics,
                                 size_t max_pending_per_token, std::chrono::seconds max_wait)
    : store_(store), metrics_(metrics), max_pending_(max_pending_per_token), max_wait_(max_wait) {}

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

store::AskRecord StoreAskHandler::record(const ApprovalRequest& request, const std::string& token,
                                         SystemClock::time_point expires) {
  store::AskRecord a;
  a.id = request.decision.id;
  a.call = toJson(request.call);
  a.decision = cli::decisionToJson(request.decision, request.call.tool);
  a.offer = offerJson(request.options, request.scopes, request.decision);
  a.created = detail::formatAuditTime(SystemClock::now());
  a.expires = detail::formatAuditTime(expires);
  a.token = token;
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
  if (!takeWaitingPlace(mine.token)) {
    return nobody("the token '" + mine.token + "' already has " + std::to_string(max_pending_) +
                  " asks waiting (the most it may)");
  }
  struct Release {
    StoreAskHandler& self;
    const std::string& token;
    ~Release() { self.releaseWaitingPlace(token); }
  } release{*this, mine.token};
  const auto now = std::chrono::steady_clock::now();
  const auto wait = std::chrono::ceil<std::chrono::seconds>(mine.deadline - now);
  if (store_.pendingAsksOf(mine.token) >= max_pending_) {
    return nobody("the token '" + mine.token + "' already has " + std::to_string(max_pending_) +
                  " asks waiting (the most it may)");
  }
  store::AskRecord a = record(request, mine.token, SystemClock::now() + wait);
  store_.createAsk(a);
  std::optional<store::AskRecord> got = store_.waitForAsk(a.id, mine.deadline);
  if (got && got->state == store::AskState::Pending && !store_.expireAsk(a.id)) {
    got = store_.findAsk(a.id);  // answered just as it expired: the answer wins
  }
  if (!got || got->state != store::AskState::Answered) {
    return nobody("no one answered within " + std::to_string(wait.count()) + " s; the ask expired");
  }
  const ApprovalAnswer result = detail::serviceAnswer(got->answer);
  promise.set_value(result);
  return promise.get_future();
}

store::AskRecord StoreAskHandler::queue(const ToolCall& call, const Decision& decision,
                                        const Engine& engine, const std::string& token,
                                        std::chrono::seconds lifetime) {
  if (store_.pendingAsksOf(token) >= max_pending_) {
    throw store::StoreError("the token '" + token + "' already has " +
                            std::to_string(max_pending_) + " asks waiting (the most it may)");
  }
  const Policy& policy = engine.policy();
  const CallView view(call, engine.toolInfo(call.tool), policy.paths.pathOptions(),
                      &policy.paths.workspace_roots);
  ApprovalRequest request{call, decision, detail::approvalOptions(view, decision),
                          scopesFor(call.context), lifetime};
  store::AskRecord a = record(request, token, SystemClock::now() + lifetime);
  store_.createAsk(a);
  return a;
}

HttpResponse StoreAskHandler::route(
    const HttpRequest& request, const Caller& caller,
    const std::function<HttpResponse(const std::string&)>& forbidden) {
  const bool approver =
      caller.role == store::TokenRole::Approver || caller.role == store::TokenRole::Admin;
  if (request.path == "/v1/asks" && request.method == "POST") {
    if (caller.role != store::TokenRole::Agent && caller.role != store::TokenRole::Admin) {
      return forbidden("queue asks");
    }
    return askFromClient(request, caller);
  }
  if (request.path == "/v1/asks") {
    if (request.method != "GET") return errorResponse(405, "GET /v1/asks, or POST an ask");
    if (!approver) return forbidden("list asks");
    std::optional<store::AskState> state;
    if (const std::string s = request.arg("state"); !s.empty()) {
      state = store::parseAskState(s);
      if (!state) return errorResponse(400, "state: pending, answered or expired");
    }
    nlohmann::json out = nlohmann::json::array();
    for (const store::AskRecord& a : store_.listAsks(state, 500)) out.push_back(store::toJson(a));
    return jsonResponse(200, out);
  }
  std::string rest = request.path.substr(std::string("/v1/asks/").size());
  const bool answering = rest.ends_with("/answer");
  if (answering) rest.resize(rest.size() - std::string("/answer").size());
  if (rest.empty() || rest.find('/') != std::string::npos) return errorResponse(404, "no such ask");
  if (answering) {
    if (request.method != "POST") return errorResponse(405, "POST an answer");
    if (!approver) return forbidden("answer asks");
    return answer(rest, request, caller);
  }
  if (request.method != "GET") return errorResponse(405, "GET an ask");
  std::optional<store::AskRecord> a = store_.findAsk(rest);
  // An agent sees its own asks only (to poll them); no other's, not even whether they exist.
  if (!a || (!approver && a->token != caller.name)) return errorResponse(404, "no such ask");
  return jsonResponse(200, store::toJson(*a));
}

HttpResponse StoreAskHandler::answer(const std::string& id, const HttpRequest& request,
                                     const Caller& caller) {
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
  if (!result.recorded) {
    if (!result.ask) return errorResponse(404, "no such ask");
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
    store_.audit()->writeRecord({{"time", recorded["at"]},
                                 {"id", detail::randomAuditId()},
                                 {"event", "ask-answered"},
                                 {"ask", id},
                                 {"tool", ask->call.value("tool", "")},
                                 {"verdict", kind == "deny" ? "deny" : "allow"},
                                 {"answer", recorded}});
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

HttpResponse StoreAskHandler::askFromClient(const HttpRequest& request, const Caller& caller) {
  StrictJson body = parseStrictJson(request.body);
  if (!body.value || !body.value->is_object()) {
    return errorResponse(400, "the ask must be a JSON object" +
                                  (body.error.empty() ? std::string() : ": " + body.error));
  }
  const nlohmann::json& in = *body.value;
  if (!in.contains("call")) return errorResponse(400, "call: required, a call as check takes it");
  cli::ParsedCall parsed = cli::parseCall(in["call"], cli::CallFormat::Toolguard, "/");
  if (!parsed.call) return errorResponse(400, "call: " + parsed.error);
  if (!in.contains("decision") || !in["decision"].is_object()) {
    return errorResponse(400, "decision: required, an object (verdict, reason, rule)");
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
    return errorResponse(429, "the token '" + caller.name + "' already has " +
                                  std::to_string(max_pending_) + " asks waiting (the most it may)");
  }
  struct Release {
    StoreAskHandler& self;
    const std::string& token;
    ~Release() { self.releaseWaitingPlace(token); }
  } release{*this, caller.name};
  if (store_.pendingAsksOf(caller.name) >= max_pending_) {
    return errorResponse(429, "the token '" + caller.name + "' already has " +
                                  std::to_string(max_pending_) + " asks waiting (the most it may)");
  }
  ToolCall call = std::move(*parsed.call);
  call.context.agent = caller.name;
  store::AskRecord a;
  a.id = detail::randomAuditId();
  a.call = toJson(call);
  a.decision = in["decision"];
  a.offer = {{"bindings", bindings},
             {"scopes", scopes},
             {"rule", offer.value("rule", "")},
             {"remember", false}};
  a.created = detail::formatAuditTime(SystemClock::now());
  a.expires = detail::formatAuditTime(SystemClock::now() + wait);
  a.token = caller.name;
  store_.createAsk(a);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  std::optional<store::AskRecord> got = store_.waitForAsk(a.id, deadline);
  if (got && got->state == store::AskState::Pending && !store_.expireAsk(a.id)) {
    got = store_.findAsk(a.id);
  } else if (got && got->state == store::AskState::Pending) {
    got->state = store::AskState::Expired;
  }
  if (!got) return errorResponse(500, "the ask went missing from the store");
  return jsonResponse(200, store::toJson(*got));
}

}  // namespace toolguard::serve
