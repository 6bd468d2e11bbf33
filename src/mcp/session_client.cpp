// The MCP proxy's session: what comes from the client (requests, batches,
// tools/call judged before the server sees it).
#include <limits>
#include <optional>
#include <thread>

#include "audit/audit_detail.hpp"
#include "core/model_text.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/session.hpp"
#include "mcp/session_answers.hpp"
#include "registry/catalog_merge.hpp"
#include "toolguard/mcp_tools.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;

// Batches were part of MCP in this protocol version only.
constexpr const char* kBatchingVersion = "2025-03-26";

/// What the model reads of a refusal; it always names toolguard, so the
/// model can tell the guard's answer from the tool's.
std::string refusalForModel(const Decision& d) {
  if (d.model_reason.empty()) return detail::blockedText(d.reason);
  if (d.model_reason.find("toolguard") == std::string::npos) {
    return detail::blockedText(d.model_reason);
  }
  return d.model_reason;
}

}  // namespace

// ---- from the client ----

void Session::fromClient(std::string_view line) {
  StrictJson parsed = parseStrictJson(line, std::numeric_limits<size_t>::max());
  if (parsed.problem == StrictJsonProblem::DuplicateKey) {
    refuseAmbiguous(line, parsed.error);
    return;
  }
  if (!parsed.value) {
    sinks_.log("toolguard mcp: the client sent a line that is not JSON (answered with an error)");
    reply(errorResponse(nullptr, kParseError, "toolguard mcp: the message is not JSON"));
    return;
  }
  json message = std::move(*parsed.value);
  if (!message.is_array()) {
    handleClientMessage(std::move(message), line, nullptr);
    return;
  }
  std::string version;
  {
    std::lock_guard lock(mutex_);
    version = protocol_version_;
  }
  if (message.empty() || version != kBatchingVersion) {
    std::string why = message.empty() ? "an empty batch"
                                      : "a JSON-RPC batch, which MCP protocol version \"" +
                                            version + "\" does not allow";
    sinks_.log("toolguard mcp: the client sent " + why + " (answered with an error)");
    reply(errorResponse(nullptr, kInvalidRequest, "toolguard mcp: " + why));
    return;
  }
  json forward_batch = json::array();
  for (json& element : message) handleClientMessage(std::move(element), "", &forward_batch);
  if (!forward_batch.empty()) sinks_.to_server(toLine(forward_batch));
}

void Session::refuseAmbiguous(std::string_view line, const std::string& error) {
  sinks_.log("toolguard mcp: the client sent a message with a " + error +
             " (refused; nothing of it forwarded)");
  json message = json::parse(line, nullptr, false);  // the last value of each key, for the ids
  std::vector<const json*> elements;
  if (message.is_array()) {
    for (const json& element : message) elements.push_back(&element);
  } else {
    elements.push_back(&message);
  }
  for (const json* element : elements) {
    MessageShape shape = shapeOf(*element);
    if (shape.kind == MessageKind::Request && shape.method == "tools/call") {
      auditMalformedCall(line, error);
      reply(toolErrorResponse(shape.id, detail::blockedText("the tool call is malformed (" + error +
                                                            "). Send each key once.")));
    } else if (shape.kind == MessageKind::Response) {
      std::unique_lock lock(mutex_);
      auto question = questions_.find(idKey(shape.id));
      if (question == questions_.end()) continue;  // a response for the server: dropped
      PendingQuestion asked = std::move(question->second);
      questions_.erase(question);
      lock.unlock();
      asked.answer.set_value(deniedWithoutPerson("the client's answer holds a " + error));
    } else if (shape.kind != MessageKind::Notification) {
      reply(errorResponse(shape.id, kInvalidRequest, "toolguard mcp: invalid message: " + error));
    }
  }
}

void Session::auditMalformedCall(std::string_view line, const std::string& error) {
  std::shared_ptr<AuditSink> log = guard()->options().audit_log;
  if (!log) return;
  Decision d;
  d.verdict = d.policy_verdict = Verdict::Deny;
  d.basis = DecisionBasis::Error;
  d.reason = "invalid call: " + error;
  d.source = SourceLocation{"<input>", 0, 0};
  json record =
      malformedCallRecord(MalformedCall{std::string(line), false, line.size(), error, "mcp"}, d,
                          std::chrono::system_clock::now());
  record["context"] = {{"mcp_server", options_.server_name}};
  try {
    log->writeRecord(record);
  } catch (const std::exception& e) {  // the call is refused anyway
    sinks_.log(std::string("toolguard mcp: the audit log could not be written: ") + e.what());
  }
}

void Session::handleClientMessage(json message, std::string_view line, json* batch_forward) {
  MessageShape shape = shapeOf(message);
  switch (shape.kind) {
    case MessageKind::Invalid:
    case MessageKind::Batch:  // a batch inside a batch
      if (shape.kind == MessageKind::Batch) shape.problem = "a batch inside a batch";
      sinks_.log("toolguard mcp: invalid message from the client: " + shape.problem);
      reply(errorResponse(shape.id, kInvalidRequest,
                          "toolguard mcp: invalid message: " + shape.problem));
      return;
    case MessageKind::Response: {
      std::unique_lock lock(mutex_);
      auto question = questions_.find(idKey(shape.id));
      if (question != questions_.end()) {
        PendingQuestion asked = std::move(question->second);
        questions_.erase(question);
        lock.unlock();
        answerQuestion(message, std::move(asked));
        return;
      }
      break;
    }
    case MessageKind::Notification:
      if (shape.method == "notifications/cancelled") {
        const json* params = message.contains("params") ? &message["params"] : nullptr;
        if (params != nullptr && params->is_object() && params->contains("requestId")) {
          std::lock_guard lock(mutex_);
          auto deciding = deciding_.find(idKey((*params)["requestId"]));
          if (deciding != deciding_.end()) *deciding->second = true;
        }
      }
      break;
    case MessageKind::Request:
      if (shape.method == "tools/call") {
        handleToolCall(message, line, batch_forward);
        return;
      }
      if (shape.method == "initialize") noteInitialize(message);
      forward(message, line, shape.method, batch_forward);
      return;
  }
  forward(message, line, "", batch_forward);
}

void Session::noteInitialize(const json& message) {
  const json params = message.value("params", json::object());
  if (!params.is_object()) return;
  std::lock_guard lock(mutex_);
  if (auto version = params.find("protocolVersion");
      version != params.end() && version->is_string()) {
    protocol_version_ = version->get<std::string>();
  }
  if (auto info = params.find("clientInfo"); info != params.end() && info->is_object()) {
    auto name = info->find("name");
    if (name != info->end() && name->is_string()) client_name_ = name->get<std::string>();
  }
  client_elicits_ = false;
  auto caps = params.find("capabilities");
  if (caps == params.end() || !caps->is_object()) return;
  auto elicitation = caps->find("elicitation");
  if (elicitation == caps->end() || !elicitation->is_object()) return;
  // `{}` means form mode (the 2025-06-18 form); later versions name the modes.
  client_elicits_ = elicitation->empty() || elicitation->contains("form");
}

void Session::handleToolCall(const json& message, std::string_view line, json* batch_forward) {
  const json& id = message["id"];
  auto params = message.find("params");
  std::string problem;
  if (params == message.end() || !params->is_object()) {
    problem = "\"params\" must be an object";
  } else if (!params->contains("name") || !(*params)["name"].is_string() ||
             (*params)["name"].get_ref<const std::string&>().empty()) {
    problem = "\"params.name\" must be a non-empty string";
  } else if (params->contains("arguments") && !(*params)["arguments"].is_null() &&
             !(*params)["arguments"].is_object()) {
    problem = "\"params.arguments\" must be an object";
  }
  if (!problem.empty()) {
    reply(errorResponse(id, kInvalidParams, "toolguard mcp: tools/call: " + problem));
    return;
  }
  ToolCall call;
  call.tool = mcpToolName(options_.server_name, (*params)["name"].get<std::string>());
  if (params->contains("arguments") && !(*params)["arguments"].is_null()) {
    call.args = (*params)["arguments"];
  }
  call.context = context_;
  std::shared_ptr<Guard> guard;
  {
    std::lock_guard lock(mutex_);
    if (call.context.agent.empty()) call.context.agent = client_name_;
    guard = guard_;
  }
  // Only an ask can wait for a person, and the person may be asked through
  // the client, whose answer arrives on this thread: those calls are decided
  // on a thread of their own; every other call at once. So is a call made
  // before any tools/list, or of a tool the last list did not hold (a later
  // page, a changed list): the proxy lists the tools itself first.
  bool list_first;
  bool unlisted;
  {
    std::lock_guard lock(mutex_);
    unlisted = tools_listed_ && listed_tools_.count(call.tool) == 0;
    list_first = (!tools_listed_ || unlisted) && !server_gone_;
  }
  if (unlisted && !list_first) {
    refuseUnlisted(message, line, (*params)["name"].get<std::string>());
    return;
  }
  std::optional<Assessment> assessed;
  if (!list_first) {
    assessed = guard->assess(call);
    const Verdict policy = assessed->decision.verdict;
    const bool may_wait =
        policy == Verdict::Escalate ||
        (policy == Verdict::Ask && call.context.mode != InteractionMode::Headless);
    if (!may_wait) {
      settle(guard->settle(call, std::move(*assessed)), message, line, batch_forward);
      return;
    }
  }
  const std::string key = idKey(id);
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard lock(mutex_);
    deciding_[key] = cancelled;
    ++in_flight_;
  }
  auto decide = [self = shared_from_this(), guard, call = std::move(call), message,
                 line = std::string(line), cancelled, key, list_first,
                 assessed = std::move(assessed)]() mutable {
    bool unlisted = false;
    if (list_first) {
      self->listToolsForTheProxy();
      guard = self->guard();
      std::lock_guard lock(self->mutex_);
      unlisted = self->tools_listed_ && self->listed_tools_.count(call.tool) == 0;
    }
    std::optional<Decision> decision;
    if (!unlisted) {
      // Listed first: the guard now knows the tools' schemas, so it judges anew.
      decision = assessed ? guard->settle(call, std::move(*assessed)) : guard->decide(call);
    }
    bool drop;
    {
      std::lock_guard lock(self->mutex_);
      drop = *cancelled || self->client_gone_;
      self->deciding_.erase(key);
    }
    if (!drop && decision) self->settle(*decision, message, line, nullptr);
    if (!drop && !decision) {
      self->refuseUnlisted(message, line, message["params"]["name"].get<std::string>());
    }
    {
      std::lock_guard lock(self->mutex_);
      --self->in_flight_;
    }
    self->idle_.notify_all();
  };
  try {
    std::thread(std::move(decide)).detach();
  } catch (const std::exception& e) {  // no thread: nobody can be asked
    {
      std::lock_guard lock(mutex_);
      deciding_.erase(key);
      --in_flight_;
    }
    reply(toolErrorResponse(
        id, detail::blockedText(std::string("the call needs approval and the proxy could not "
                                            "wait for it (") +
                                e.what() + ")")));
  }
}

void Session::refuseUnlisted(const json& message, std::string_view line, const std::string& tool) {
  std::vector<std::string> offered;  // what the client was shown
  std::string held;                  // why the pins hold the tool back, if they do
  {
    std::lock_guard lock(mutex_);
    auto it = held_tools_.find(mcpToolName(options_.server_name, tool));
    if (it != held_tools_.end()) held = it->second;
    const Policy& policy = guard_->engine().policy();
    for (const auto& [name, info] : listed_tools_) {
      if (!detail::deniedOutright(info, policy)) offered.push_back(info.name);
    }
  }
  std::string names;
  constexpr size_t kNamesShown = 30;
  for (size_t i = 0; i < offered.size() && i < kNamesShown; ++i) {
    names += (i == 0 ? "" : ", ") + serverToolName(offered[i], options_.server_name);
  }
  if (offered.size() > kNamesShown) {
    names += " and " + std::to_string(offered.size() - kNamesShown) + " more";
  }
  if (!held.empty()) {
    const std::string what = "the tool \"" + tool + "\" of the MCP server \"" +
                             options_.server_name + "\" is held back: " + held;
    sinks_.log("toolguard mcp: the client called a held tool (" + what + "; refused)");
    auditMalformedCall(line.empty() ? toLine(message) : line, what);
    reply(toolErrorResponse(
        message["id"],
        detail::blockedText(what + ". A person can approve it with `toolguard pins approve " +
                            options_.server_name + " " + tool + "`.")));
    return;
  }
  const std::string what =
      "the MCP server \"" + options_.server_name + "\" has no tool named \"" + tool + "\"";
  sinks_.log("toolguard mcp: the client called a tool the server never listed (" + what +
             "; refused, not forwarded)");
  auditMalformedCall(line.empty() ? toLine(message) : line, what);
  reply(toolErrorResponse(
      message["id"],
      detail::blockedText(what + ": it never listed one, so the call was not sent. " +
                          (offered.empty() ? std::string("It lists no tools you may call.")
                                           : "Its tools are: " + names + "."))));
}

void Session::settle(const Decision& decision, const json& message, std::string_view line,
                     json* batch_forward) {
  const json& id = message["id"];
  if (decision.verdict == Verdict::Allow) {
    if (decision.sanitized_args) {  // the tool must run with what the validators made of them
      json changed = message;
      changed["params"]["arguments"] = *decision.sanitized_args;
      forward(changed, "", "tools/call", batch_forward);
    } else {
      forward(message, line, "tools/call", batch_forward);
    }
  } else if (decision.verdict == Verdict::Abort) {
    json data = {{"verdict", "abort"}, {"reason", decision.reason}};
    if (!decision.rule_id.empty()) data["rule"] = decision.rule_id;
    reply(errorResponse(id, kAbortedByGuard,
                        "toolguard aborted the generation: " + refusalForModel(decision), data));
  } else {  // deny, and an ask nobody settled
    reply(toolErrorResponse(id, refusalForModel(decision)));
  }
}

void Session::forward(const json& message, std::string_view line, const std::string& method,
                      json* batch_forward) {
  std::unique_lock lock(mutex_);
  if (server_gone_) {
    if (method.empty()) return;  // a notification or a response: nobody to give it to
    std::string why = server_gone_why_;
    lock.unlock();
    reply(errorResponse(
        message["id"], kServerUnavailable,
        "the MCP server \"" + options_.server_name + "\" is not running (" + why + ")"));
    return;
  }
  if (!method.empty()) awaiting_server_[idKey(message["id"])] = method;
  if (method == "tools/call") calls_awaiting_[idKey(message["id"])] = message["params"];
  lock.unlock();
  if (batch_forward != nullptr) {
    batch_forward->push_back(message);
  } else {
    sinks_.to_server(line.empty() ? toLine(message) : std::string(line));
  }
}

}  // namespace toolguard::mcp
