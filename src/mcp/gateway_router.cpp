// The MCP gateway's router: the client's ids on one side, the router's own
// ids on the servers' side, and the listing merged from every server.
#include "mcp/gateway_router.hpp"

#include <stdexcept>

#include "audit/audit_detail.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/message_id_splice.hpp"
#include "toolguard/session_state.hpp"
#include "toolguard/strict_json.hpp"

namespace toolguard::mcp {
namespace {

using json = nlohmann::json;
using RouterClock = std::chrono::steady_clock;

// The protocol versions the gateway speaks; it answers the client's own
// when it is one of them, else the newest.
constexpr const char* kGatewayVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

std::string negotiatedVersion(const json& params) {
  if (params.is_object()) {
    auto asked = params.find("protocolVersion");
    if (asked != params.end() && asked->is_string()) {
      for (const char* version : kGatewayVersions) {
        if (*asked == version) return version;
      }
    }
  }
  return kGatewayVersions[0];
}

bool isResponse(const json& message) {
  return message.contains("id") && !message.contains("method") &&
         (message.contains("result") || message.contains("error"));
}

}  // namespace

GatewayRouter::GatewayRouter(McpGatewayOptions options, GatewayClientHooks hooks)
    : options_(std::move(options)),
      hooks_(std::move(hooks)),
      server_request_prefix_("toolguard-gw-" + detail::randomAuditId() + "-") {
  if (std::string error = mcpGatewayOptionsError(options_); !error.empty()) {
    throw std::invalid_argument(error);
  }
  // One client is one session, whichever server a call goes to: what one
  // server brought (untrusted input, a secret) counts for calls to another.
  if (options_.session.empty()) options_.session = "mcp-gateway-" + detail::randomAuditId();
  std::shared_ptr<SessionRepository> shared_memory;
  for (McpGatewayServer& server : options_.servers) {
    CallContext& context = server.proxy.context;
    if (context.session.empty()) context.session = options_.session;
    if (context.session_key.empty()) {
      context.session_key = SessionStore::keyOf("mcp-gateway", options_.session);
    }
    if (!server.guard_options.sessions) {
      if (!shared_memory) {
        const Policy& policy = server.policy;
        shared_memory = memorySessionRepository(
            SessionStoreOptions{{}, policy.sessions.max_events, policy.sessions.expire_after}, 1);
      }
      server.guard_options.sessions = shared_memory;
    }
  }
  listed_.resize(options_.servers.size());
  for (size_t i = 0; i < options_.servers.size(); ++i) {
    GatewayMemberHooks member_hooks{[this, i](std::string line, const MessageShape& shape) {
                                      fromMember(i, std::move(line), shape);
                                    },
                                    hooks_.log, hooks_.client_full,
                                    [this](const json& response) { onServerInitialized(response); },
                                    hooks_.answers_owner};
    member_named_.emplace(options_.servers[i].proxy.server_name, i);
    members_.push_back(
        std::make_unique<GatewayMember>(options_.servers[i], options_, std::move(member_hooks)));
  }
  ticker_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!closed_) {
      tick_wake_.wait_for(lock, std::chrono::milliseconds(200));
      if (closed_) break;
      lock.unlock();
      tick();
      lock.lock();
    }
  });
}

void GatewayRouter::answerFds(AnswerPoll& answers) const {
  for (const auto& member : members_) member->answerFds(answers);
}

GatewayRouter::~GatewayRouter() {
  close();
}

void GatewayRouter::close() {
  {
    std::lock_guard lock(mutex_);
    if (closed_ && !ticker_.joinable()) return;
    closed_ = true;
  }
  tick_wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  for (auto& member : members_) member->close();
}

void GatewayRouter::reply(const json& message) {
  hooks_.to_client(toLine(message));
}

void GatewayRouter::tick() {
  const RouterClock::time_point now = RouterClock::now();
  for (auto& member : members_) member->stopIfIdle(now);
  std::vector<uint64_t> late;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, listing] : listings_) {
      if (now >= listing.deadline) late.push_back(id);
    }
  }
  for (uint64_t id : late) finishListing(id, true);
}

// ---- from the client ----

void GatewayRouter::clientLineTooLong(size_t limit) {
  std::string what = "a message from the client is longer than " + std::to_string(limit) + " bytes";
  hooks_.log("toolguard mcp: " + what + " (dropped, answered with an error)");
  reply(errorResponse(nullptr, kInvalidRequest, "toolguard mcp: " + what));
}

void GatewayRouter::fromClient(std::string_view line) {
  StrictJson parsed = parseStrictJson(line, std::numeric_limits<size_t>::max());
  if (!parsed.value) {
    // A key twice: a server might read another value than the one judged.
    const bool twice = parsed.problem == StrictJsonProblem::DuplicateKey;
    hooks_.log(twice ? "toolguard mcp: the client sent a message with a key twice: " + parsed.error
                     : "toolguard mcp: the client sent a line that is not JSON");
    reply(errorResponse(
        nullptr, twice ? kInvalidRequest : kParseError,
        twice ? "toolguard mcp: " + parsed.error : "toolguard mcp: the message is not JSON"));
    return;
  }
  fromClientMessage(std::move(*parsed.value));
}

void GatewayRouter::fromClientMessage(json message) {
  if (message.is_array()) {
    hooks_.log("toolguard mcp: the client sent a JSON-RPC batch (answered with an error)");
    reply(errorResponse(nullptr, kInvalidRequest,
                        "toolguard mcp: the gateway takes one message at a time, not batches"));
    return;
  }
  const MessageShape shape = shapeOf(message);
  switch (shape.kind) {
    case MessageKind::Request:
      handleClientRequest(std::move(message));
      return;
    case MessageKind::Notification:
      handleClientNotification(std::move(message));
      return;
    case MessageKind::Response:
      handleClientResponse(std::move(message));
      return;
    default:
      reply(errorResponse(message.is_object() && message.contains("id") ? message["id"] : json(),
                          kInvalidRequest, "toolguard mcp: " + shape.problem));
  }
}

void GatewayRouter::handleClientRequest(json message) {
  const std::string method = message["method"].get<std::string>();
  if (options_.flat && method == "initialize") {
    // The server answers for itself; it starts now, with the client's parameters.
    {
      std::lock_guard lock(mutex_);
      initialize_id_ = message["id"];
    }
    members_[0]->setClientInitialize(message.value("params", json::object()));
    members_[0]->start();
  } else if (options_.flat && method != "ping") {
    forwardRequest(0, std::move(message));
  } else if (method == "initialize") {
    answerInitialize(message);
  } else if (method == "ping") {
    reply({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", json::object()}});
  } else if (method == "tools/list") {
    startListing(message["id"]);
  } else if (method == "tools/call") {
    routeCall(std::move(message));
  } else {
    reply(errorResponse(message["id"], -32601,
                        "toolguard mcp: the gateway serves tools only; \"" + method +
                            "\" is not one of its methods"));
  }
}

void GatewayRouter::onServerInitialized(const json& response) {
  json id;
  {
    std::lock_guard lock(mutex_);
    if (!options_.flat || initialize_id_.is_null()) return;
    id = std::move(initialize_id_);
    initialize_id_ = nullptr;
  }
  json answer = response;
  answer["id"] = std::move(id);
  reply(answer);
}

void GatewayRouter::answerInitialize(const json& message) {
  const json params = message.value("params", json::object());
  for (auto& member : members_) member->setClientInitialize(params);
  std::string names;
  for (const McpGatewayServer& server : options_.servers) {
    names += (names.empty() ? "" : ", ") + server.proxy.server_name;
  }
  json result = {
      {"protocolVersion", negotiatedVersion(params)},
      {"capabilities", {{"tools", {{"listChanged", true}}}}},
      {"serverInfo", {{"name", "toolguard-gateway"}, {"version", options_.version}}},
      {"instructions", "The tools of several MCP servers (" + names +
                           "), each named SERVER__TOOL. Every call is checked by toolguard."}};
  reply({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", std::move(result)}});
}

void GatewayRouter::routeCall(json message) {
  const json& id = message["id"];
  auto params = message.find("params");
  std::string name;
  if (params != message.end() && params->is_object() && params->contains("name") &&
      (*params)["name"].is_string()) {
    name = (*params)["name"].get<std::string>();
  }
  // The server whose name and the separator begin the tool's name; the
  // longest such name (a server "a_" lists "a___tool", not "a" "_tool").
  auto member = member_named_.end();
  size_t cut = 0;
  for (auto it = member_named_.begin(); it != member_named_.end(); ++it) {
    const std::string prefix = it->first + std::string(kGatewayToolSeparator);
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
        (member == member_named_.end() || it->first.size() > member->first.size())) {
      member = it;
      cut = it->first.size();
    }
  }
  if (member == member_named_.end()) {
    std::string servers;
    for (const auto& [server, index] : member_named_)
      servers += (servers.empty() ? "" : ", ") + server;
    reply(errorResponse(id, kInvalidParams,
                        "toolguard mcp: unknown tool \"" + name +
                            "\": the gateway's tools are named SERVER__TOOL, SERVER one of " +
                            servers));
    return;
  }
  (*params)["name"] = name.substr(cut + kGatewayToolSeparator.size());
  forwardRequest(member->second, std::move(message));
}

void GatewayRouter::forwardRequest(size_t member, json message) {
  int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = ++next_id_;
    forwarded_[id] = Forwarded{message["id"], member, 0};
    client_requests_[idKey(message["id"])] = id;
  }
  message["id"] = id;
  members_[member]->send(toLine(message), id);
}

void GatewayRouter::handleClientNotification(json message) {
  const std::string method = message["method"].get<std::string>();
  if (method == "notifications/cancelled") {
    auto params = message.find("params");
    if (params == message.end() || !params->is_object() || !params->contains("requestId")) return;
    size_t member = 0;
    int64_t id = 0;
    {
      // A cancelled request gets no answer: the router forgets it now.
      std::lock_guard lock(mutex_);
      auto found = client_requests_.find(idKey((*params)["requestId"]));
      if (found == client_requests_.end()) return;
      id = found->second;
      client_requests_.erase(found);
      auto forwarded = forwarded_.find(id);
      if (forwarded == forwarded_.end()) return;
      member = forwarded->second.member;
      forwarded_.erase(forwarded);
      (*params)["requestId"] = id;
    }
    members_[member]->send(toLine(message), nullptr);
    members_[member]->forget(id);
  } else if (method == "notifications/roots/list_changed") {
    for (auto& member : members_) {
      if (member->running()) member->send(toLine(message), nullptr);
    }
  } else if (options_.flat && method != "notifications/initialized") {
    members_[0]->send(toLine(message), nullptr);
  }
  // notifications/initialized: each server gets its own when it starts.
}

void GatewayRouter::handleClientResponse(json message) {
  ServerRequest request;
  {
    std::lock_guard lock(mutex_);
    auto found = server_requests_.find(idKey(message["id"]));
    if (found == server_requests_.end()) {
      hooks_.log("toolguard mcp: the client answered a request nobody asked (dropped)");
      return;
    }
    request = std::move(found->second);
    server_requests_.erase(found);
  }
  message["id"] = request.id;
  members_[request.member]->send(toLine(message), nullptr);
}

// ---- listings ----

void GatewayRouter::startListing(const json& client_id) {
  uint64_t listing = 0;
  std::vector<size_t> ask;
  {
    std::lock_guard lock(mutex_);
    listing = ++next_listing_;
    Listing& l = listings_[listing];
    l.client_id = client_id;
    l.tools.assign(members_.size(), json::array());
    l.done.assign(members_.size(), false);
    l.deadline = RouterClock::now() + options_.list_timeout;
    for (size_t i = 0; i < members_.size(); ++i) {
      // A server stopped while idle is listed as it last was, not started.
      if (listed_[i] && !members_[i]->running()) {
        l.tools[i] = *listed_[i];
        l.done[i] = true;
      } else {
        ask.push_back(i);
      }
    }
  }
  for (size_t member : ask) requestPage(listing, member, nullptr);
  finishListing(listing, false);
}

void GatewayRouter::requestPage(uint64_t listing, size_t member, const json& cursor) {
  int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = ++next_id_;
    forwarded_[id] = Forwarded{nullptr, member, listing};
  }
  json params = cursor.is_null() ? json::object() : json{{"cursor", cursor}};
  members_[member]->send(
      toLine({{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}, {"params", params}}), id);
}

void GatewayRouter::onListingPage(uint64_t listing, size_t member, const json& message) {
  json next_cursor;
  {
    std::lock_guard lock(mutex_);
    auto found = listings_.find(listing);
    if (found == listings_.end()) return;  // sent already, without this server
    Listing& l = found->second;
    const json* result = message.contains("result") ? &message["result"] : nullptr;
    if (result == nullptr || !result->is_object() || !result->contains("tools") ||
        !(*result)["tools"].is_array()) {
      std::string why = message.contains("error") ? errorMessageOf(message["error"], "an error")
                                                  : std::string("no tools in its answer");
      hooks_.log("toolguard mcp: the server \"" + members_[member]->name() +
                 "\" is left out of the listing: " + why);
      l.done[member] = true;
    } else {
      for (json tool : (*result)["tools"]) {
        if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) continue;
        tool["name"] = members_[member]->name() + std::string(kGatewayToolSeparator) +
                       tool["name"].get<std::string>();
        l.tools[member].push_back(std::move(tool));
      }
      auto cursor = result->find("nextCursor");
      if (cursor != result->end() && cursor->is_string() &&
          !cursor->get_ref<const std::string&>().empty()) {
        next_cursor = *cursor;
      } else {
        l.done[member] = true;
        listed_[member] = l.tools[member];
      }
    }
  }
  if (!next_cursor.is_null()) {
    requestPage(listing, member, next_cursor);
    return;
  }
  finishListing(listing, false);
}

void GatewayRouter::finishListing(uint64_t listing, bool timed_out) {
  json client_id;
  json tools = json::array();
  {
    std::lock_guard lock(mutex_);
    auto found = listings_.find(listing);
    if (found == listings_.end()) return;
    Listing& l = found->second;
    for (size_t i = 0; i < l.done.size(); ++i) {
      if (l.done[i]) continue;
      if (!timed_out) return;
      hooks_.log("toolguard mcp: the server \"" + members_[i]->name() +
                 "\" did not list its tools in time; it is left out of the listing");
    }
    client_id = l.client_id;
    for (json& part : l.tools) {
      for (json& tool : part) tools.push_back(std::move(tool));
    }
    listings_.erase(found);
  }
  reply({{"jsonrpc", "2.0"}, {"id", client_id}, {"result", {{"tools", std::move(tools)}}}});
}

// ---- from the servers ----

void GatewayRouter::fromMember(size_t member, std::string line, const MessageShape& shape) {
  // An answer to a call (most of what comes back): its id is put back in
  // its text; the result, however long, is relayed as it came.
  if (shape.kind == MessageKind::Response && shape.id.is_number_integer()) {
    std::optional<Forwarded> forwarded = takeForwarded(member, shape.id.get<int64_t>());
    if (!forwarded) return;
    if (forwarded->listing == 0) {
      if (std::optional<std::string> renamed = withTopLevelId(line, idKey(forwarded->client_id))) {
        hooks_.to_client(std::move(*renamed));
        return;
      }
    }
    json message = json::parse(line, nullptr, false);
    if (!message.is_object()) return;
    answerForwarded(member, std::move(*forwarded), std::move(message));
    return;
  }
  json message = json::parse(line, nullptr, false);
  if (!message.is_object()) return;  // a Session's output is one message
  if (isResponse(message)) {
    onMemberResponse(member, std::move(message));
    return;
  }
  if (!message.contains("method") || !message["method"].is_string()) return;
  const std::string method = message["method"].get<std::string>();
  if (message.contains("id")) {
    // A server's question to the client (an elicitation, a sampling, its
    // roots): under an id of the router's, which the client answers.
    std::string id;
    {
      std::lock_guard lock(mutex_);
      id = server_request_prefix_ + std::to_string(++next_server_request_);
      server_requests_[idKey(json(id))] = ServerRequest{member, message["id"]};
    }
    message["id"] = id;
    reply(message);
    return;
  }
  if (method == "notifications/tools/list_changed") {
    {
      std::lock_guard lock(mutex_);
      listed_[member].reset();
    }
    reply(message);
  } else if (method == "notifications/cancelled") {
    auto params = message.find("params");
    if (params == message.end() || !params->is_object() || !params->contains("requestId")) return;
    const json wanted = (*params)["requestId"];
    {
      std::lock_guard lock(mutex_);
      auto request = server_requests_.begin();
      while (request != server_requests_.end() &&
             !(request->second.member == member && request->second.id == wanted)) {
        ++request;
      }
      if (request == server_requests_.end()) return;
      (*params)["requestId"] = json::parse(request->first);
      server_requests_.erase(request);  // it will not be answered
    }
    reply(message);
  } else if (!options_.flat && (method.starts_with("notifications/resources/") ||
                                method.starts_with("notifications/prompts/"))) {
    return;  // the gateway serves tools only
  } else {
    reply(message);  // progress, log messages
  }
}

void GatewayRouter::onMemberResponse(size_t member, json message) {
  const json& id = message["id"];
  if (!id.is_number_integer()) {
    // Every request the router forwards has an integer id: an error about a
    // line the server could not read (null id) is passed on; any other
    // answer could be read by the client as another call's answer.
    if (id.is_null() && message.contains("error")) reply(message);
    return;
  }
  std::optional<Forwarded> forwarded = takeForwarded(member, id.get<int64_t>());
  if (forwarded) answerForwarded(member, std::move(*forwarded), std::move(message));
}

std::optional<GatewayRouter::Forwarded> GatewayRouter::takeForwarded(size_t member, int64_t id) {
  std::lock_guard lock(mutex_);
  auto found = forwarded_.find(id);
  if (found == forwarded_.end() || found->second.member != member) return std::nullopt;
  Forwarded forwarded = std::move(found->second);
  forwarded_.erase(found);
  if (forwarded.listing == 0) {
    auto request = client_requests_.find(idKey(forwarded.client_id));
    if (request != client_requests_.end() && request->second == id) client_requests_.erase(request);
  }
  return forwarded;
}

void GatewayRouter::answerForwarded(size_t member, Forwarded forwarded, json message) {
  if (forwarded.listing != 0) {
    onListingPage(forwarded.listing, member, message);
    return;
  }
  message["id"] = std::move(forwarded.client_id);
  reply(message);
}

}  // namespace toolguard::mcp
