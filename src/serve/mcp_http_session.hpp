#pragma once
// Internal: one MCP session of `toolguard mcp --listen` (Streamable HTTP):
// the gateway router that serves it, and where its messages go. An answer
// goes to the event stream of the POST that carried its request; the
// servers' own requests and notifications go to the session's GET stream,
// else to an open POST stream, else wait (bounded) for a GET stream.
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mcp/gateway_router.hpp"
#include "serve/http_server.hpp"

namespace toolguard::serve {

/// One client's MCP session on the HTTP face.
class McpHttpSession : public std::enable_shared_from_this<McpHttpSession> {
 public:
  /// A session for the token `token` (only its requests may use it).
  /// Throws std::invalid_argument for bad gateway options.
  McpHttpSession(std::string id, std::string token, McpGatewayOptions options,
                 std::function<void(const std::string&)> log);
  ~McpHttpSession();
  McpHttpSession(const McpHttpSession&) = delete;
  McpHttpSession& operator=(const McpHttpSession&) = delete;

  const std::string& id() const { return id_; }
  const std::string& token() const { return token_; }

  /// A request of the client's (`message`, its `id`): its answer, and what
  /// comes before it, goes to `stream`, which is closed after the answer.
  /// False (nothing sent) when a request with this id is still unanswered.
  bool request(const nlohmann::json& message, std::shared_ptr<ResponseStream> stream);
  /// A notification or a response of the client's.
  void notify(const nlohmann::json& message);
  /// The client's GET stream for the servers' own messages; false when one
  /// is open already.
  bool openGetStream(std::shared_ptr<ResponseStream> stream);
  /// The streams open now (answers waited for, and the GET stream).
  size_t openStreams();
  /// Writes a comment on every open stream (a client that went away is
  /// noticed by the failed write).
  void keepAlive();
  /// True when no stream is open and nothing came since `since`.
  bool idleSince(std::chrono::steady_clock::time_point since);
  /// Ends the session: every stream is closed, every server stopped.
  void close();

 private:
  void toClient(std::string line);
  bool deliver(const std::shared_ptr<ResponseStream>& stream, const std::string& line);

  std::string id_;
  std::string token_;
  std::function<void(const std::string&)> log_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<ResponseStream>> answer_streams_;  ///< request id key ->
  std::shared_ptr<ResponseStream> get_stream_;
  std::deque<std::string> undelivered_;
  std::chrono::steady_clock::time_point last_used_;
  bool closed_ = false;
  // Last: it is stopped (and its threads joined) before the rest goes.
  std::unique_ptr<mcp::GatewayRouter> router_;
};

}  // namespace toolguard::serve
