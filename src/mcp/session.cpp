// The MCP proxy's state machine: asking a person (through the client or the
// terminal), questions to the client and the ends of either side. What comes
// from the client is in session_client.cpp, what goes to and comes from the
// server in session_server.cpp.
#include "mcp/session.hpp"

#include "audit/audit_detail.hpp"
#include "mcp/elicitation.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/session_answers.hpp"
#include "toolguard/mcp_tools.hpp"
#include "toolguard/session_state.hpp"
#include "toolguard/terminal_prompt.hpp"

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;

std::future<ApprovalAnswer> ready(ApprovalAnswer answer) {
  std::promise<ApprovalAnswer> promise;
  promise.set_value(std::move(answer));
  return promise.get_future();
}

}  // namespace

std::string serverToolName(const std::string& judged, const std::string& server) {
  size_t prefix = mcpToolName(server, "").size();
  return judged.size() > prefix ? judged.substr(prefix) : judged;
}

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
  // One connection is one session: what its calls and results brought is
  // remembered for the rule of two and `after:` rules (docs/sessions.md).
  if (!guard_options.sessions) {
    const Policy& policy = session->base_policy_;
    guard_options.sessions = memorySessionRepository(
        SessionStoreOptions{{}, policy.sessions.max_events, policy.sessions.expire_after}, 1);
  }
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
  // The connection is the session, whatever name the client gives itself.
  if (context_.session_key.empty()) {
    context_.session_key = SessionStore::keyOf("mcp:" + options.server_name, context_.session);
  }
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
    calls_awaiting_.clear();
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
