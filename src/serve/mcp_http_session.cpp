// One MCP session on the HTTP face: messages in through its router, out to
// the event stream each belongs on.
#include "serve/mcp_http_session.hpp"

#include "mcp/jsonrpc.hpp"

namespace toolguard::serve {
namespace {

using json = nlohmann::json;

// Messages of the servers that wait for a stream to open, at most.
constexpr size_t kMaxUndelivered = 1000;

std::string sseEvent(std::string_view line) {
  std::string event = "event: message\ndata: ";
  event.append(line);
  event += "\n\n";
  return event;
}

}  // namespace

McpHttpSession::McpHttpSession(std::string id, std::string token, McpGatewayOptions options,
                               std::function<void(const std::string&)> log)
    : id_(std::move(id)),
      token_(std::move(token)),
      log_(std::move(log)),
      last_used_(std::chrono::steady_clock::now()) {
  options.session = "mcp-http-" + id_;
  router_ = std::make_unique<mcp::GatewayRouter>(
      std::move(options),
      // No loop of its own waits for answers: the handler threads send.
      mcp::GatewayClientHooks{[this](std::string line) { toClient(std::move(line)); }, log_,
                              [] { return false; }, std::thread::id()});
}

McpHttpSession::~McpHttpSession() {
  close();
}

bool McpHttpSession::request(const json& message, std::shared_ptr<ResponseStream> stream) {
  const std::string key = mcp::idKey(message["id"]);
  {
    std::lock_guard lock(mutex_);
    if (closed_) {
      // Ended (DELETE, idle) while this request came: answered, not kept.
      deliver(stream, mcp::toLine(mcp::errorResponse(message["id"], mcp::kServerUnavailable,
                                                     "toolguard mcp: the session has ended")));
      stream->close();
      return true;
    }
    last_used_ = std::chrono::steady_clock::now();
    auto [at, added] = answer_streams_.emplace(key, stream);
    if (!added) {
      if (at->second->open()) return false;
      at->second = stream;
    }
  }
  // A client that goes away before its answer: the call is cancelled.
  std::weak_ptr<ResponseStream> weak = stream;
  stream->on_gone = [session = weak_from_this(), key, weak, id = message["id"]] {
    std::shared_ptr<McpHttpSession> self = session.lock();
    if (!self) return;
    {
      std::lock_guard lock(self->mutex_);
      auto at = self->answer_streams_.find(key);
      if (at == self->answer_streams_.end() || at->second != weak.lock() || self->closed_) return;
      self->answer_streams_.erase(at);
    }
    self->router_->fromClient(
        mcp::toLine({{"jsonrpc", "2.0"},
                     {"method", "notifications/cancelled"},
                     {"params", {{"requestId", id}, {"reason", "the client left"}}}}));
  };
  router_->fromClientMessage(message);
  return true;
}

void McpHttpSession::notify(const json& message) {
  {
    std::lock_guard lock(mutex_);
    last_used_ = std::chrono::steady_clock::now();
  }
  router_->fromClientMessage(message);
}

bool McpHttpSession::openGetStream(std::shared_ptr<ResponseStream> stream) {
  std::lock_guard lock(mutex_);
  if (closed_) {
    stream->close();  // ended meanwhile: the stream ends at once
    return true;
  }
  last_used_ = std::chrono::steady_clock::now();
  if (get_stream_ && get_stream_->open()) return false;
  get_stream_ = std::move(stream);
  while (!undelivered_.empty()) {
    if (!deliver(get_stream_, undelivered_.front())) break;
    undelivered_.pop_front();
  }
  return true;
}

bool McpHttpSession::deliver(const std::shared_ptr<ResponseStream>& stream,
                             const std::string& line) {
  return stream && stream->push(sseEvent(line));
}

void McpHttpSession::toClient(std::string line) {
  const mcp::MessageShape shape = mcp::scanMessage(line);
  std::lock_guard lock(mutex_);
  if (shape.kind == mcp::MessageKind::Response) {
    auto at = answer_streams_.find(mcp::idKey(shape.id));
    if (at != answer_streams_.end()) {
      std::shared_ptr<ResponseStream> stream = std::move(at->second);
      answer_streams_.erase(at);
      deliver(stream, line);
      stream->close();
      return;
    }
    if (shape.id.is_null() && !answer_streams_.empty()) {
      // An error about a line without an id: to the latest open request.
      deliver(answer_streams_.rbegin()->second, line);
      return;
    }
    return;  // its client went away
  }
  // The servers' requests and notifications: the GET stream, else a POST
  // stream still open, else they wait for a GET stream.
  if (get_stream_ && deliver(get_stream_, line)) return;
  for (auto& [key, stream] : answer_streams_) {
    if (deliver(stream, line)) return;
  }
  if (undelivered_.size() >= kMaxUndelivered) undelivered_.pop_front();
  undelivered_.push_back(std::move(line));
}

size_t McpHttpSession::openStreams() {
  std::lock_guard lock(mutex_);
  size_t open = get_stream_ && get_stream_->open() ? 1 : 0;
  for (const auto& [key, stream] : answer_streams_) open += stream->open() ? 1 : 0;
  return open;
}

void McpHttpSession::keepAlive() {
  std::lock_guard lock(mutex_);
  if (get_stream_) get_stream_->push(": keep-alive\n\n");
  for (const auto& [key, stream] : answer_streams_) stream->push(": keep-alive\n\n");
}

bool McpHttpSession::idleSince(std::chrono::steady_clock::time_point since) {
  if (openStreams() != 0) return false;
  std::lock_guard lock(mutex_);
  return last_used_ < since;
}

void McpHttpSession::close() {
  std::map<std::string, std::shared_ptr<ResponseStream>> streams;
  std::shared_ptr<ResponseStream> get_stream;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    streams.swap(answer_streams_);
    get_stream.swap(get_stream_);
  }
  if (router_) router_->close();
  for (auto& [key, stream] : streams) stream->close();
  if (get_stream) get_stream->close();
}

}  // namespace toolguard::serve
