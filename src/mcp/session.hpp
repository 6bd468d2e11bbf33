#pragma once
// Internal: the MCP proxy's state machine. It reads whole messages from
// either side and says what goes where; it does no I/O itself, so tests can
// drive it message by message.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "toolguard/guard.hpp"
#include "toolguard/mcp_proxy.hpp"

namespace toolguard::mcp {

/// The tool's name as the server knows it (mcp__NAME__TOOL -> TOOL).
std::string serverToolName(const std::string& judged, const std::string& server);

/// Where a session's output goes. Each sink must be thread-safe: decisions
/// that wait for a person finish on threads of their own.
struct SessionSinks {
  std::function<void(std::string line)> to_client;      ///< one message, no newline
  std::function<void(std::string line)> to_server;      ///< one message, no newline
  std::function<void(const std::string& message)> log;  ///< a line for stderr
};

/// One proxied connection: routes messages, registers the server's tools,
/// judges tools/call requests and answers what the server must not see.
class Session : public std::enable_shared_from_this<Session> {
 public:
  /// A session judging with `policy` plus the tools the server lists.
  /// `options.context` is completed (session id, mcp_server). The Guard's
  /// approval handler asks the client (elicitation) or the given handler
  /// (else the terminal), as options.ask says.
  static std::shared_ptr<Session> create(Policy policy, GuardOptions guard_options,
                                         const McpProxyOptions& options, SessionSinks sinks);

  /// Handles one line the client sent.
  void fromClient(std::string_view line);
  /// Handles one line the server sent.
  void fromServer(std::string_view line);
  /// A client line longer than the limit was dropped.
  void clientLineTooLong(size_t limit);
  /// A server line longer than the limit was dropped.
  void serverLineTooLong(size_t limit);
  /// The server is gone: every request it still owed an answer gets an
  /// error, and so does every later one.
  void serverGone(const std::string& why);
  /// The client is gone: pending questions to it are denied, decisions still
  /// being made are not sent anywhere.
  void clientGone();
  /// Waits until no decision is being made (true), or `timeout` passed.
  bool waitForDecisions(std::chrono::milliseconds timeout);

  /// The guard calls are judged with now (its engine knows the listed tools).
  std::shared_ptr<Guard> guard() const;
  /// The call context every call gets (before the client's name is known).
  const CallContext& context() const { return context_; }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

 private:
  struct Private {};

 public:
  Session(Private, Policy policy, const McpProxyOptions& options, SessionSinks sinks);

 private:
  class RoutingHandler;
  struct PendingQuestion {
    std::promise<ApprovalAnswer> answer;
    ApprovalRequest request;
  };

  /// A client line with a key twice in one object (`error` names it): the
  /// server might read another value than the proxy judged, so nothing of it
  /// is forwarded. A tools/call is answered as a blocked call, other
  /// requests with an error, an answer to the proxy's question is a deny;
  /// notifications and responses for the server are dropped.
  void refuseAmbiguous(std::string_view line, const std::string& error);
  /// Writes a refused tools/call's line to the audit log as a malformed call.
  void auditMalformedCall(std::string_view line, const std::string& error);
  void handleClientMessage(nlohmann::json message, std::string_view line,
                           nlohmann::json* batch_forward);
  void handleToolCall(const nlohmann::json& message, std::string_view line,
                      nlohmann::json* batch_forward);
  /// A tools/call of a tool the server's (fresh) list does not hold: answered
  /// as a blocked call naming the tools it does list, audited, not forwarded.
  void refuseUnlisted(const nlohmann::json& message, std::string_view line,
                      const std::string& tool);
  void settle(const Decision& decision, const nlohmann::json& message, std::string_view line,
              nlohmann::json* batch_forward);
  void forward(const nlohmann::json& message, std::string_view line, const std::string& method,
               nlohmann::json* batch_forward);
  void noteInitialize(const nlohmann::json& message);
  /// Returns true when it changed `response` (a tools/list response).
  bool registerListedTools(nlohmann::json& response);
  /// The listed tools the pins hold back (name as the server lists it ->
  /// why), each new one logged and audited.
  std::map<std::string, std::string> heldByPins(const nlohmann::json& tools, bool last_page);
  /// A tools/call result from the server: a credential is redacted and text
  /// aimed at an agent flagged, both remembered by the session. True when it
  /// changed `result`.
  bool judgeCallResult(const nlohmann::json& id, nlohmann::json& result);
  bool handleServerResponse(nlohmann::json& response);
  /// Whether a response of the server's with `id` answers a request it was
  /// sent (or is an error about no request: a null id).
  bool answersARequest(const nlohmann::json& id);
  void answerQuestion(const nlohmann::json& response, PendingQuestion question);
  /// Sends a request of the proxy's own to the server and waits for its
  /// response; nullopt when none came in time or the server is gone.
  std::optional<nlohmann::json> askServer(const std::string& method, nlohmann::json params);
  /// Lists the server's tools for the proxy itself (every page), so a call
  /// made before the client listed them is judged with their schema and hints.
  void listToolsForTheProxy();
  std::future<ApprovalAnswer> askClient(const ApprovalRequest& request);
  std::string askerName() const;
  bool clientCanElicit() const;
  void reply(const nlohmann::json& message);

  Policy base_policy_;
  McpProxyOptions options_;
  CallContext context_;
  SessionSinks sinks_;
  std::shared_ptr<ApprovalHandler> fallback_handler_;

  mutable std::mutex mutex_;
  std::shared_ptr<Guard> guard_;
  std::map<std::string, ToolInfo> listed_tools_;          ///< judged name -> what the list said
  std::map<std::string, std::string> held_tools_;         ///< judged name -> why the pins hold it
  std::map<std::string, nlohmann::json> calls_awaiting_;  ///< id key -> params of a forwarded call
  /// Whether the server had no pins when this session first listed its
  /// tools, and whether that listing's last page was read.
  std::optional<bool> pins_first_listing_;
  bool pins_first_listing_done_ = false;
  std::map<std::string, std::string> awaiting_server_;  ///< request id key -> method
  std::map<std::string, PendingQuestion> questions_;    ///< our request id key -> question
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> deciding_;  ///< id key -> cancelled
  std::map<std::string, std::promise<nlohmann::json>>
      own_requests_;           ///< our requests to the server
  bool tools_listed_ = false;  ///< a tools/list response was registered
  std::string client_name_;
  std::string protocol_version_;
  bool client_elicits_ = false;
  bool server_gone_ = false;
  std::string server_gone_why_;
  bool client_gone_ = false;
  uint64_t next_question_ = 0;
  std::string question_prefix_;
  size_t in_flight_ = 0;
  std::condition_variable idle_;
};

}  // namespace toolguard::mcp
