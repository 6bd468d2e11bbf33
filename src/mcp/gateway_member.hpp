#pragma once
// Internal: one server behind the MCP gateway, with its own Session (its
// policy, its judged tools, its asks) and its own upstream. It is started
// when a message first needs it, initialized with the client's own
// initialize parameters, stopped when idle or when the client leaves, and
// started again by the next message after it ended.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

#include "mcp/answer_poll.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/relay_io.hpp"
#include "toolguard/mcp_gateway.hpp"

namespace toolguard::mcp {

class Session;
class Upstream;
class LineWriter;

/// What a member sends toward the client, and the limits it keeps.
struct GatewayMemberHooks {
  /// A message from the member's Session toward the client (its ids are
  /// the gateway's; the router maps them back), with its shape as the
  /// member read it. Called from any thread.
  std::function<void(std::string line, const MessageShape& shape)> to_client;
  /// A line for stderr.
  std::function<void(const std::string&)> log;
  /// True while the client's queue is full: the server is not read then.
  std::function<bool()> client_full;
  /// The server's answer to the initialize the member sent it (a result or
  /// an error; `id` is the member's own), or an error response when it
  /// could not be started. May be empty.
  std::function<void(const nlohmann::json& response)> initialized;
  /// The thread whose loop waits for the answers to what it sends over
  /// HTTP (Upstream::pollAnswersInOwnerLoop); none: workers read them.
  std::thread::id answers_owner;
};

/// One server behind the gateway.
class GatewayMember {
 public:
  GatewayMember(McpGatewayServer server, const McpGatewayOptions& limits, GatewayMemberHooks hooks);
  ~GatewayMember();
  GatewayMember(const GatewayMember&) = delete;
  GatewayMember& operator=(const GatewayMember&) = delete;

  /// The server's name (the SERVER of SERVER__TOOL).
  const std::string& name() const { return server_.proxy.server_name; }

  /// The client's initialize parameters, sent to the server whenever it starts.
  void setClientInitialize(nlohmann::json params);

  /// Sends one message of the client's (with the gateway's ids) to the
  /// server, starting it first when it is not running. A request (`id` not
  /// null) counts as in flight until its response passes. When the server
  /// cannot be started, the request gets an error.
  void send(std::string line, const nlohmann::json& id);

  /// Starts the server now when it is not running (its answer to
  /// initialize goes to the `initialized` hook).
  void start();

  /// The client cancelled the request `id` (no answer will be waited for).
  void forget(const nlohmann::json& id);

  /// Appends the descriptors of the answers its running server's upstream
  /// waits for in the owner's loop, each with that upstream.
  void answerFds(AnswerPoll& answers) const;

  /// True while the server runs (or starts).
  bool running() const;

  /// Stops the server when it has been idle (nothing in flight, nothing
  /// sent or received) for its idle_stop; `now` is steady_clock's.
  void stopIfIdle(std::chrono::steady_clock::time_point now);

  /// The client left: stops the server (and does not start it again),
  /// waits for it to end.
  void close();

 private:
  enum class State { Stopped, Starting, Ready, Stopping };

  void lifeOfOneServer();
  bool startServer(std::string& why);
  void relayUntilTheServerEnds();
  void endServer();
  void onSessionOutput(std::string line);
  // An error response of the member's own (an id of the router's) toward the client.
  void errorToClient(const nlohmann::json& response);
  void onInitialized(const std::string& line);
  void failQueued(const std::string& why);
  /// Starts the life thread when none runs (mutex_ held); false when no
  /// thread could be started.
  bool startLocked();
  void requestStop();

  McpGatewayServer server_;
  McpGatewayOptions limits_;
  GatewayMemberHooks hooks_;
  std::string init_id_;  // the id of the initialize the member sends itself

  mutable std::mutex mutex_;
  std::condition_variable ended_;
  State state_ = State::Stopped;
  bool closing_ = false;     // the client left: never start again
  bool stop_asked_ = false;  // stop the running server (idle or closing)
  nlohmann::json client_init_ = nlohmann::json::object();
  std::deque<std::pair<std::string, nlohmann::json>> queued_;  // until the server is ready
  std::set<std::string> in_flight_;                            // id keys of requests sent
  std::chrono::steady_clock::time_point last_activity_;
  std::chrono::steady_clock::time_point start_deadline_;
  std::thread life_;
  bool life_running_ = false;
  bool reached_ready_ = false;  // the running server answered initialize

  // The running server's parts (set and cleared by the life thread).
  std::shared_ptr<Session> session_;
  std::shared_ptr<Upstream> upstream_;
  std::shared_ptr<LineWriter> to_server_;
  WakePipe wake_;
  std::shared_ptr<struct GatewayMemberOutlet> outlet_;
};

}  // namespace toolguard::mcp
