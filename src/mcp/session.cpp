// The MCP proxy's state machine: routes messages, registers listed tools,
// judges tools/call requests and answers what the server must not see.
#include "mcp/session.hpp"

#include <limits>
#include <thread>

#include "../audit/audit_detail.hpp"
#include "../registry/catalog_merge.hpp"
#include "mcp/elicitation.hpp"
#include "mcp/jsonrpc.hpp"
#include "toolguard/json_schema.hpp"
#include "toolguard/mcp_tools.hpp"
#include "toolguard/strict_json.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;

// Batches were part of MCP in this protocol version only.
constexpr const char* kBatchingVersion = "2025-03-26";

ApprovalAnswer deniedWithoutPerson(std::string reason) {
  ApprovalAnswer answer;
  answer.outcome = ApprovalOutcome::Deny;
  answer.reason = std::move(reason);
  answer.by_person = false;
  return answer;
}

std::future<ApprovalAnswer> ready(ApprovalAnswer answer) {
  std::promise<ApprovalAnswer> promise;
  promise.set_value(std::move(answer));
  return promise.get_future();
}

/// What the model reads of a refusal; it always names toolguard, so the
/// model can tell the guard's answer from the tool's.
std::string modelReason(const Decision& d) {
  if (d.model_reason.empty()) return "Blocked by toolguard: " + d.reason;
  if (d.model_reason.find("toolguard") == std::string::npos) {
    return "Blocked by toolguard: " + d.model_reason;
  }
  return d.model_reason;
}

/// The tool's name as the server knows it (mcp__NAME__TOOL -> TOOL).
std::string serverToolName(const std::string& judged, const std::string& server) {
  size_t prefix = mcpToolName(server, "").size();
  return judged.size() > prefix ? judged.substr(prefix) : judged;
}

}  // namespace

/// Asks whoever options.ask names: the client by elicitation, or the
/// program's handler (the terminal by default).
class Session::RoutingHandler : public ApprovalHandler {
 public:
  explicit RoutingHandler(std::weak_ptr<Session> session) : session_(std::move(session)) {}
  std::string name() const override {
    auto session = session_.lock();
    return session ? session->askerName() : "none";
  }
  std::future<ApprovalAnswer> ask(const ApprovalRequest& request) override {
    auto session = session_.lock();
    if (!session) return ready(deniedWithoutPerson("the MCP proxy is shutting down"));
    McpAskChannel channel = session->options_.ask;
    if (channel == McpAskChannel::None) {
      return ready(deniedWithoutPerson("nobody can be asked (toolguard mcp --ask none)"));
    }
    if (channel != McpAskChannel::Terminal && session->clientCanElicit()) {
      return session->askClient(request);
    }
    if (channel == McpAskChannel::Elicitation) {
      return ready(
          deniedWithoutPerson("nobody can be asked: the MCP client does not support elicitation"));
    }
    return session->fallback_handler_->ask(request);
  }

 private:
  std::weak_ptr<Session> session_;
};

std::shared_ptr<Session> Session::create(Policy policy, GuardOptions guard_options,
                                         const McpProxyOptions& options, SessionSinks sinks) {
  auto session = std::make_shared<Session>(Private{}, std::move(policy), options, std::move(sinks));
  session->fallback_handler_ =
      guard_options.approval_handler ? guard_options.approval_handler : terminalApprovalHandler();
  guard_options.approval_handler = std::make_shared<RoutingHandler>(session);
  session->guard_ =
      std::make_shared<Guard>(Engine(session->base_policy_), std::move(guard_options));
  return session;
}

Session::Session(Private, Policy policy, const McpProxyOptions& options, SessionSinks sinks)
    : base_policy_(std::move(policy)),
      options_(options),
      context_(options.context),
      sinks_(std::move(sinks)),
      question_prefix_("toolguard-" + detail::randomAuditId() + "-") {
  context_.mcp_server = options.server_name;
  if (context_.session.empty()) context_.session = "mcp-" + detail::randomAuditId();
}

Session::~Session() = default;

std::shared_ptr<Guard> Session::guard() const {
  std::lock_guard lock(mutex_);
  return guard_;
}

bool Session::clientCanElicit() const {
  std::lock_guard lock(mutex_);
  return client_elicits_;
}

std::string Session::askerName() const {
  if (options_.ask == McpAskChannel::None) return "none";
  if (options_.ask != McpAskChannel::Terminal && clientCanElicit()) return "elicitation";
  if (options_.ask == McpAskChannel::Elicitation) return "none";
  return fallback_handler_->name();
}

void Session::reply(const json& message) {
  sinks_.to_client(toLine(message));
}

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
      reply(toolErrorResponse(shape.id, "Blocked by toolguard: the tool call is malformed (" +
                                            error + "). Send each key once."));
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
  std::shared_ptr<AuditLog> log = guard()->options().audit_log;
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
  // before any tools/list: the proxy lists the tools itself first.
  bool list_first;
  {
    std::lock_guard lock(mutex_);
    list_first = !tools_listed_ && !server_gone_;
  }
  if (!list_first && guard->engine().decide(call).verdict != Verdict::Ask) {
    settle(guard->decide(call), message, line, batch_forward);
    return;
  }
  const std::string key = idKey(id);
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  {
    std::lock_guard lock(mutex_);
    deciding_[key] = cancelled;
    ++in_flight_;
  }
  auto decide = [self = shared_from_this(), guard, call = std::move(call), message,
                 line = std::string(line), cancelled, key, list_first]() mutable {
    if (list_first) {
      self->listToolsForTheProxy();
      guard = self->guard();
    }
    Decision decision = guard->decide(call);
    bool drop;
    {
      std::lock_guard lock(self->mutex_);
      drop = *cancelled || self->client_gone_;
      self->deciding_.erase(key);
    }
    if (!drop) self->settle(decision, message, line, nullptr);
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
    reply(toolErrorResponse(id, std::string("Blocked by toolguard: the call needs approval and "
                                            "the proxy could not wait for it (") +
                                    e.what() + ")"));
  }
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
                        "toolguard aborted the generation: " + modelReason(decision), data));
  } else {  // deny, and an ask nobody settled
    reply(toolErrorResponse(id, modelReason(decision)));
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
  lock.unlock();
  if (batch_forward != nullptr) {
    batch_forward->push_back(message);
  } else {
    sinks_.to_server(line.empty() ? toLine(message) : std::string(line));
  }
}

// ---- questions to the client ----

std::future<ApprovalAnswer> Session::askClient(const ApprovalRequest& request) {
  PendingQuestion question;
  question.request = request;
  std::future<ApprovalAnswer> answer = question.answer.get_future();
  json id;
  {
    std::lock_guard lock(mutex_);
    if (client_gone_) return ready(deniedWithoutPerson("the MCP client disconnected"));
    id = question_prefix_ + std::to_string(++next_question_);
    questions_.emplace(idKey(id), std::move(question));
  }
  json params = elicitationParams(request, options_.server_name,
                                  serverToolName(request.call.tool, options_.server_name));
  reply({{"jsonrpc", "2.0"}, {"id", id}, {"method", "elicitation/create"}, {"params", params}});
  return answer;
}

void Session::answerQuestion(const json& response, PendingQuestion question) {
  question.answer.set_value(readElicitationAnswer(response, question.request));
}

// ---- the proxy's own requests to the server ----

std::optional<json> Session::askServer(const std::string& method, json params) {
  std::promise<json> promise;
  std::future<json> answer = promise.get_future();
  json id;
  {
    std::lock_guard lock(mutex_);
    if (server_gone_) return std::nullopt;
    id = question_prefix_ + "own-" + std::to_string(++next_question_);
    own_requests_.emplace(idKey(id), std::move(promise));
  }
  sinks_.to_server(
      toLine({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}));
  if (answer.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    std::lock_guard lock(mutex_);
    own_requests_.erase(idKey(id));
    return std::nullopt;
  }
  try {
    return answer.get();
  } catch (const std::future_error&) {  // the server went away
    return std::nullopt;
  }
}

void Session::listToolsForTheProxy() {
  json params = json::object();
  for (int page = 0; page < 100; ++page) {
    std::optional<json> response = askServer("tools/list", params);
    if (!response || !response->is_object() || !(*response)["result"].is_object()) {
      sinks_.log("toolguard mcp: the server \"" + options_.server_name +
                 "\" did not list its tools; its calls are judged as unknown tools");
      return;
    }
    registerListedTools(*response);
    const json& cursor = (*response)["result"]["nextCursor"];
    if (!cursor.is_string()) return;
    params["cursor"] = cursor;
  }
}

// ---- from the server ----

void Session::fromServer(std::string_view line) {
  MessageShape shape = scanMessage(line);
  if (shape.kind == MessageKind::Invalid) {
    sinks_.log("toolguard mcp: the server \"" + options_.server_name +
               "\" sent an invalid message (dropped): " + shape.problem);
    if (shape.id.is_string() || shape.id.is_number()) {
      std::unique_lock lock(mutex_);
      if (awaiting_server_.erase(idKey(shape.id)) > 0) {
        lock.unlock();
        reply(errorResponse(
            shape.id, kInternalError,
            "toolguard mcp: the MCP server sent an invalid response: " + shape.problem));
      }
    }
    return;
  }
  if (shape.kind == MessageKind::Batch) {
    json batch = json::parse(line, nullptr, false);
    bool changed = false;
    for (json& element : batch) {
      if (shapeOf(element).kind == MessageKind::Response) changed |= handleServerResponse(element);
    }
    sinks_.to_client(changed ? toLine(batch) : std::string(line));
    return;
  }
  if (shape.kind == MessageKind::Response) {
    std::string method;
    {
      std::unique_lock lock(mutex_);
      auto own = own_requests_.find(idKey(shape.id));
      if (own != own_requests_.end()) {  // the proxy's own request: not the client's business
        std::promise<json> answer = std::move(own->second);
        own_requests_.erase(own);
        lock.unlock();
        answer.set_value(json::parse(line, nullptr, false));
        return;
      }
      auto it = awaiting_server_.find(idKey(shape.id));
      if (it != awaiting_server_.end()) method = it->second;
    }
    // Only these responses are read; every other one is relayed as it came.
    if (method == "tools/list" || method == "initialize") {
      json response = json::parse(line, nullptr, false);
      if (handleServerResponse(response)) {
        sinks_.to_client(toLine(response));
        return;
      }
    } else if (!method.empty()) {
      std::lock_guard lock(mutex_);
      awaiting_server_.erase(idKey(shape.id));
    }
  }
  sinks_.to_client(std::string(line));
}

bool Session::handleServerResponse(json& response) {
  std::string method;
  {
    std::lock_guard lock(mutex_);
    auto it = awaiting_server_.find(idKey(response["id"]));
    if (it == awaiting_server_.end()) return false;
    method = std::move(it->second);
    awaiting_server_.erase(it);
  }
  auto result = response.find("result");
  if (result == response.end() || !result->is_object()) return false;
  if (method == "initialize") {
    auto version = result->find("protocolVersion");
    if (version != result->end() && version->is_string()) {
      std::lock_guard lock(mutex_);
      protocol_version_ = version->get<std::string>();
    }
    return false;
  }
  return method == "tools/list" && registerListedTools(response);
}

bool Session::registerListedTools(json& response) {
  json& result = response["result"];
  auto tools = result.find("tools");
  if (tools == result.end() || !tools->is_array()) return false;
  std::vector<std::optional<ToolInfo>> infos;  // nullopt: the entry is dropped
  for (const json& entry : *tools) {
    try {
      ToolInfo info = mcpToolInfo(options_.server_name, entry, base_policy_.default_verdict);
      if (!info.input_schema.is_null()) (void)JsonSchema::compile(info.input_schema);
      infos.push_back(std::move(info));
    } catch (const std::exception& e) {
      auto name = entry.is_object() ? entry.find("name") : entry.end();
      const std::string tool = entry.is_object() && name != entry.end() && name->is_string()
                                   ? " \"" + name->get<std::string>() + "\""
                                   : "";
      sinks_.log("toolguard mcp: the server \"" + options_.server_name + "\" listed a tool" + tool +
                 " toolguard cannot judge, so the client does not see it: " + e.what());
      infos.emplace_back();
    }
  }
  std::lock_guard lock(mutex_);
  std::map<std::string, ToolInfo> listed = listed_tools_;
  for (auto& info : infos) {
    if (info) listed[info->name] = detail::mergeServerTool(*info, base_policy_);
  }
  Policy policy = base_policy_;
  for (const auto& [name, tool] : listed) {
    policy.tools.add(tool);
    // A tool policy comes from the policy file's entry, which keeps its origin.
    if (!tool.policy || policy.tool_origins.count(name) == 0) {
      policy.tool_origins[name] =
          ToolOrigin{PolicyLayer::Code, {"<mcp server " + options_.server_name + ">", 0, 0}};
    }
  }
  try {
    guard_ = std::make_shared<Guard>(guard_->withEngine(Engine(policy)));
    listed_tools_ = std::move(listed);
  } catch (const std::exception& e) {  // keep judging with what was known; show nothing new
    sinks_.log(std::string("toolguard mcp: the listed tools could not be registered: ") + e.what());
    infos.assign(infos.size(), std::nullopt);
  }
  json kept = json::array();
  for (size_t i = 0; i < infos.size(); ++i) {
    if (infos[i] && !detail::deniedOutright(listed_tools_.at(infos[i]->name), policy)) {
      kept.push_back(std::move((*tools)[i]));
    }
  }
  tools_listed_ = true;
  bool changed = kept.size() != tools->size();
  if (changed) *tools = std::move(kept);
  return changed;
}

// ---- ends ----

void Session::clientLineTooLong(size_t limit) {
  std::string what = "a message from the client is longer than " + std::to_string(limit) + " bytes";
  sinks_.log("toolguard mcp: " + what + " (dropped, answered with an error)");
  reply(errorResponse(nullptr, kInvalidRequest, "toolguard mcp: " + what));
}

void Session::serverLineTooLong(size_t limit) {
  sinks_.log("toolguard mcp: a message from the server \"" + options_.server_name +
             "\" is longer than " + std::to_string(limit) + " bytes (dropped)");
}

void Session::serverGone(const std::string& why) {
  std::vector<json> unanswered;
  {
    std::lock_guard lock(mutex_);
    server_gone_ = true;
    server_gone_why_ = why;
    for (const auto& [key, method] : awaiting_server_) unanswered.push_back(json::parse(key));
    awaiting_server_.clear();
    own_requests_.clear();  // their waiters see a broken promise
  }
  for (const json& id : unanswered) {
    reply(errorResponse(
        id, kServerUnavailable,
        "the MCP server \"" + options_.server_name + "\" exited before answering (" + why + ")"));
  }
}

void Session::clientGone() {
  std::map<std::string, PendingQuestion> questions;
  {
    std::lock_guard lock(mutex_);
    client_gone_ = true;
    questions.swap(questions_);
  }
  for (auto& [key, question] : questions) {
    question.answer.set_value(deniedWithoutPerson("the MCP client disconnected"));
  }
}

bool Session::waitForDecisions(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, timeout, [this] { return in_flight_ == 0; });
}

}  // namespace toolguard::mcp
