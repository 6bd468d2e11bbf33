#pragma once
// Internal: the client's side of the MCP gateway. It answers initialize and
// ping itself, merges the servers' listings (each tool renamed
// SERVER__TOOL), routes each call to its server under an id of its own, and
// maps what the servers send back (answers, their questions to the client,
// notifications) to the client's ids. Every server's own Session judges its
// calls; the router only routes.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mcp/gateway_member.hpp"
#include "toolguard/mcp_gateway.hpp"

namespace toolguard::mcp {

/// The separator between a server's name and its tool's in the names the
/// gateway lists.
inline constexpr std::string_view kGatewayToolSeparator = "__";

/// Where the router's messages go.
struct GatewayClientHooks {
  std::function<void(std::string line)> to_client;  ///< one message, no newline; any thread
  std::function<void(const std::string&)> log;      ///< a line for stderr
  std::function<bool()> client_full;                ///< true while the client's queue is full
  /// The thread whose loop waits for the answers to what it sends to
  /// servers over HTTP (answerFds, answerReady); none: workers read them.
  std::thread::id answers_owner;
};

/// One client's gateway: its servers and the ids in flight between them.
class GatewayRouter {
 public:
  /// Throws std::invalid_argument when mcpGatewayOptionsError() finds a problem.
  GatewayRouter(McpGatewayOptions options, GatewayClientHooks hooks);
  ~GatewayRouter();
  GatewayRouter(const GatewayRouter&) = delete;
  GatewayRouter& operator=(const GatewayRouter&) = delete;

  /// The descriptors of answers the loop of hooks.answers_owner waits for,
  /// each with the upstream whose answerReady() takes it.
  void answerFds(AnswerPoll& answers) const;

  /// Handles one line the client sent.
  void fromClient(std::string_view line);
  /// Handles one message the client sent, already read as strictly as
  /// fromClient reads a line (no key twice; parseStrictJson).
  void fromClientMessage(nlohmann::json message);
  /// A client line longer than the limit was dropped.
  void clientLineTooLong(size_t limit);
  /// The client left: every server is stopped (waits for each to end).
  void close();

 private:
  /// Where an id the router gave a request leads back to.
  struct Forwarded {
    nlohmann::json client_id;  ///< the client's id (null for a listing page)
    size_t member = 0;
    uint64_t listing = 0;  ///< not 0: a page of this listing
  };
  /// A server's question to the client, under the router's id.
  struct ServerRequest {
    size_t member = 0;
    nlohmann::json id;
  };
  /// A listing for the client, gathered from every server.
  struct Listing {
    nlohmann::json client_id;
    std::vector<nlohmann::json> tools;  ///< per member: the tools renamed so far
    std::vector<bool> done;
    std::chrono::steady_clock::time_point deadline;
  };

  void fromMember(size_t member, std::string line, const MessageShape& shape);
  void onMemberResponse(size_t member, nlohmann::json message);
  /// The call the router forwarded to `member` as `id`, forgotten now;
  /// nullopt when it sent no such call there (or it was answered).
  std::optional<Forwarded> takeForwarded(size_t member, int64_t id);
  /// Gives `message`, the answer to `forwarded`, to its listing or to the client.
  void answerForwarded(size_t member, Forwarded forwarded, nlohmann::json message);
  void onListingPage(uint64_t listing, size_t member, const nlohmann::json& message);
  void handleClientRequest(nlohmann::json message);
  void handleClientNotification(nlohmann::json message);
  void handleClientResponse(nlohmann::json message);
  void answerInitialize(const nlohmann::json& message);
  /// Flat: the server's own answer to initialize goes to the client.
  void onServerInitialized(const nlohmann::json& response);
  void startListing(const nlohmann::json& client_id);
  void requestPage(uint64_t listing, size_t member, const nlohmann::json& cursor);
  void finishListing(uint64_t listing, bool timed_out);
  void routeCall(nlohmann::json message);
  /// Sends `message` (a request of the client's) to `member` under a new id.
  void forwardRequest(size_t member, nlohmann::json message);
  void reply(const nlohmann::json& message);
  void tick();

  McpGatewayOptions options_;
  GatewayClientHooks hooks_;
  std::map<std::string, size_t, std::less<>> member_named_;

  std::mutex mutex_;
  int64_t next_id_ = 0;
  std::map<int64_t, Forwarded> forwarded_;
  std::map<std::string, int64_t> client_requests_;  ///< client id key -> router id
  uint64_t next_server_request_ = 0;
  std::map<std::string, ServerRequest> server_requests_;  ///< router id key -> member's
  uint64_t next_listing_ = 0;
  std::map<uint64_t, Listing> listings_;
  std::vector<std::optional<nlohmann::json>> listed_;  ///< per member: its last whole listing
  std::string server_request_prefix_;
  nlohmann::json initialize_id_;  ///< flat: the client's initialize, until the server answers

  std::thread ticker_;
  std::condition_variable tick_wake_;
  bool closed_ = false;
  // Last: the members (and their threads, which route into the fields
  // above) go first.
  std::vector<std::unique_ptr<GatewayMember>> members_;
};

}  // namespace toolguard::mcp
