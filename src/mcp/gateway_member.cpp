// One server behind the MCP gateway: a thread per life of the server starts
// it, initializes it with the client's parameters, relays what it says into
// its Session, and ends it (idle, gone, or the client left).
#include "mcp/gateway_member.hpp"

#include <poll.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "mcp/http_upstream.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/line_io.hpp"
#include "mcp/session.hpp"
#include "mcp/upstream.hpp"

namespace toolguard::mcp {

using json = nlohmann::json;
using MemberClock = std::chrono::steady_clock;

// Messages that wait for a server to start, at most.
constexpr size_t kMostQueued = 1024;

/// Where a Session's output goes while its member lives: the Session's
/// decision threads may outlast the member by a moment.
struct GatewayMemberOutlet {
  // Recursive: a message the Session answers at once (a refused call) comes
  // back through the outlet on the thread that is already inside it.
  std::recursive_mutex mutex;
  GatewayMember* member = nullptr;
};

GatewayMember::GatewayMember(McpGatewayServer server, const McpGatewayOptions& limits,
                             GatewayMemberHooks hooks)
    : server_(std::move(server)),
      limits_(limits),
      hooks_(std::move(hooks)),
      init_id_("toolguard-gateway-initialize"),
      last_activity_(MemberClock::now()),
      outlet_(std::make_shared<GatewayMemberOutlet>()) {
  limits_.servers.clear();
  outlet_->member = this;
}

GatewayMember::~GatewayMember() {
  close();
  std::lock_guard lock(outlet_->mutex);
  outlet_->member = nullptr;
}

void GatewayMember::setClientInitialize(json params) {
  std::lock_guard lock(mutex_);
  client_init_ = std::move(params);
}

void GatewayMember::answerFds(AnswerPoll& answers) const {
  std::shared_ptr<Upstream> upstream;
  {
    std::lock_guard lock(mutex_);
    upstream = upstream_;
  }
  if (upstream) answers.collect(upstream);
}

bool GatewayMember::running() const {
  std::lock_guard lock(mutex_);
  return state_ != State::Stopped;
}

void GatewayMember::send(std::string line, const json& id) {
  std::unique_lock lock(mutex_);
  last_activity_ = MemberClock::now();
  if (closing_) {
    lock.unlock();
    if (!id.is_null()) {
      errorToClient(
          errorResponse(id, kServerUnavailable, "toolguard mcp: the gateway is shutting down"));
    }
    return;
  }
  // A server that does not read its input is not sent more (its queue is
  // bounded); the other servers go on.
  const bool full =
      (state_ == State::Ready && to_server_ && to_server_->full()) || queued_.size() >= kMostQueued;
  if (full) {
    lock.unlock();
    hooks_.log("toolguard mcp: the server \"" + name() + "\" is not reading; a message to it was " +
               (id.is_null() ? "dropped" : "refused"));
    if (!id.is_null()) {
      errorToClient(errorResponse(
          id, kServerUnavailable,
          "toolguard mcp: the server \"" + name() + "\" is not reading its messages"));
    }
    return;
  }
  if (state_ == State::Ready) {
    if (!id.is_null()) in_flight_.insert(idKey(id));
    std::shared_ptr<Session> session = session_;
    lock.unlock();
    session->fromClient(line);
    return;
  }
  queued_.emplace_back(std::move(line), id);
  if (!startLocked()) {
    lock.unlock();
    failQueued("could not be started: no thread for it");
  }
}

void GatewayMember::forget(const json& id) {
  std::lock_guard lock(mutex_);
  in_flight_.erase(idKey(id));
}

void GatewayMember::start() {
  bool started = true;
  {
    std::lock_guard lock(mutex_);
    if (!closing_) started = startLocked();
  }
  if (!started && hooks_.initialized) {
    hooks_.initialized(errorResponse(
        init_id_, kServerUnavailable,
        "toolguard mcp: the server \"" + name() + "\" could not be started: no thread for it"));
  }
}

bool GatewayMember::startLocked() {
  if (state_ != State::Stopped || life_running_) return true;
  if (life_.joinable()) life_.join();  // its thread has ended (life_running_ is false)
  state_ = State::Starting;
  stop_asked_ = false;
  life_running_ = true;
  try {
    life_ = std::thread([this] { lifeOfOneServer(); });
  } catch (const std::system_error&) {
    state_ = State::Stopped;
    life_running_ = false;
    return false;
  }
  return true;
}

void GatewayMember::stopIfIdle(MemberClock::time_point now) {
  {
    std::lock_guard lock(mutex_);
    if (server_.idle_stop.count() <= 0 || state_ != State::Ready || !in_flight_.empty() ||
        now - last_activity_ < server_.idle_stop) {
      return;
    }
    stop_asked_ = true;
    state_ = State::Stopping;
  }
  hooks_.log("toolguard mcp: the server \"" + name() + "\" is idle; stopping it");
  wake_.wake();
}

void GatewayMember::close() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    stop_asked_ = true;
    if (state_ != State::Stopped) state_ = State::Stopping;
  }
  wake_.wake();
  if (life_.joinable()) life_.join();
  std::lock_guard lock(mutex_);
  queued_.clear();
}

void GatewayMember::failQueued(const std::string& why) {
  std::deque<std::pair<std::string, json>> failed;
  {
    std::lock_guard lock(mutex_);
    failed.swap(queued_);
  }
  for (const auto& [line, id] : failed) {
    if (id.is_null()) continue;
    errorToClient(errorResponse(id, kServerUnavailable,
                                "toolguard mcp: the server \"" + name() + "\" " + why));
  }
}

void GatewayMember::lifeOfOneServer() {
  for (;;) {
    std::string why;
    if (startServer(why)) {
      relayUntilTheServerEnds();
      endServer();
    } else {
      hooks_.log("toolguard mcp: the server \"" + name() + "\" could not be started: " + why);
      failQueued("could not be started: " + why);
      if (hooks_.initialized) {
        hooks_.initialized(errorResponse(
            init_id_, kServerUnavailable,
            "toolguard mcp: the server \"" + name() + "\" could not be started: " + why));
      }
    }
    std::lock_guard lock(mutex_);
    in_flight_.clear();
    if (closing_ || queued_.empty()) {
      state_ = State::Stopped;
      life_running_ = false;
      return;
    }
    // Messages came while it was stopping: start it again for them.
    state_ = State::Starting;
    stop_asked_ = false;
  }
}

bool GatewayMember::startServer(std::string& why) {
  std::shared_ptr<Upstream> upstream;
  try {
    upstream =
        server_.proxy.url.empty()
            ? childUpstream(server_.proxy.command)
            : httpUpstream(HttpUpstreamOptions{server_.proxy.url, server_.proxy.url_headers, name(),
                                               limits_.max_message_bytes, hooks_.log});
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
  const std::string server_name = name();
  auto log = hooks_.log;
  auto to_server = std::make_shared<LineWriter>(
      upstream->releaseInput(), true,
      [log, server_name](const std::string& e) {
        log("toolguard mcp: cannot write to the server \"" + server_name + "\": " + e);
      },
      limits_.max_queued_bytes);
  std::shared_ptr<GatewayMemberOutlet> outlet = outlet_;
  SessionSinks sinks{
      [outlet, log](std::string line) {
        std::lock_guard lock(outlet->mutex);
        if (!outlet->member) return;
        try {
          outlet->member->onSessionOutput(std::move(line));
        } catch (const std::exception& e) {
          // A message nobody could route: dropped, the gateway goes on.
          log(std::string("toolguard mcp: a server's message was dropped: ") + e.what());
        }
      },
      sendToUpstream(upstream, to_server), log};
  std::shared_ptr<Session> session =
      Session::create(server_.policy, server_.guard_options, server_.proxy, std::move(sinks));
  // An upstream with threads of its own hands the server's messages over itself.
  auto client_full = hooks_.client_full;
  // (A weak pointer: the session's sink holds the upstream.)
  upstream->deliverTo(
      [weak = std::weak_ptr<Session>(session)](std::string_view line) {
        if (auto live = weak.lock()) live->fromServer(line);
      },
      [client_full] { return client_full && client_full(); });
  // The router's loop waits for the answers to what it sends (HTTP).
  if (hooks_.answers_owner != std::thread::id())
    upstream->pollAnswersInOwnerLoop(hooks_.answers_owner);
  json params;
  {
    std::lock_guard lock(mutex_);
    session_ = session;
    upstream_ = std::move(upstream);
    to_server_ = to_server;
    start_deadline_ = MemberClock::now() + limits_.start_timeout;
    reached_ready_ = false;
    params = client_init_;
  }
  session->fromClient(
      toLine({{"jsonrpc", "2.0"}, {"id", init_id_}, {"method", "initialize"}, {"params", params}}));
  return true;
}

void GatewayMember::relayUntilTheServerEnds() {
  LineSplitter lines(limits_.max_message_bytes);
  std::string buffer;
  auto from_server = [this](std::string_view line) {
    try {
      session_->fromServer(line);
    } catch (const std::exception& e) {
      hooks_.log("toolguard mcp: a message of the server \"" + name() +
                 "\" was dropped: " + e.what());
    }
  };
  auto too_long = [this] { session_->serverLineTooLong(limits_.max_message_bytes); };
  const int output = upstream_->outputFd();
  bool input_closed = false;
  bool start_timed_out = false;
  int escalation = 0;
  MemberClock::time_point next_escalation = MemberClock::time_point::max();
  for (;;) {
    bool stop = false;
    State state = State::Stopped;
    MemberClock::time_point start_deadline;
    {
      std::lock_guard lock(mutex_);
      stop = stop_asked_;
      state = state_;
      start_deadline = start_deadline_;
    }
    const MemberClock::time_point now = MemberClock::now();
    if (state == State::Starting && !start_timed_out && now >= start_deadline) {
      start_timed_out = true;
      const std::string why = "did not answer initialize within " +
                              std::to_string(limits_.start_timeout.count()) + " ms";
      hooks_.log("toolguard mcp: the server \"" + name() + "\" " + why);
      failQueued(why);
      std::lock_guard lock(mutex_);
      stop_asked_ = stop = true;
    }
    if (stop && !input_closed) {
      input_closed = true;
      to_server_->closeWhenDrained();  // the server's cue to exit
      next_escalation = now + limits_.shutdown_grace;
    }
    if (next_escalation != MemberClock::time_point::max() && now >= next_escalation) {
      upstream_->escalate(++escalation);
      next_escalation =
          escalation == 1 ? now + limits_.shutdown_grace : MemberClock::time_point::max();
    }
    const bool client_full = hooks_.client_full && hooks_.client_full();
    MemberClock::time_point wake_at = next_escalation;
    if (state == State::Starting && !start_timed_out) wake_at = std::min(wake_at, start_deadline);
    int timeout = -1;
    if (client_full) {
      timeout = 20;  // the client's queue drains on its own thread
    } else if (wake_at != MemberClock::time_point::max()) {
      timeout = static_cast<int>(std::max<int64_t>(
          1, std::chrono::duration_cast<std::chrono::milliseconds>(wake_at - now).count() + 1));
    }
    pollfd fds[2] = {{client_full ? -1 : output, POLLIN, 0}, {wake_.readFd(), POLLIN, 0}};
    if (::poll(fds, 2, timeout) < 0 && errno != EINTR) {
      hooks_.log(std::string("toolguard mcp: poll failed: ") + std::strerror(errno));
      upstream_->escalate(2);
      return;
    }
    if (fds[1].revents != 0) wake_.drain();
    if (fds[0].revents != 0) {
      if (readSome(output, buffer)) {
        lines.feed(buffer, from_server, too_long);
      } else {
        lines.finish(from_server);
        return;
      }
    }
  }
}

void GatewayMember::endServer() {
  const UpstreamEnd end = upstream_->stop(limits_.shutdown_grace);
  bool asked = false;
  bool was_ready = false;
  {
    std::lock_guard lock(mutex_);
    asked = stop_asked_;
    was_ready = reached_ready_;
    state_ = State::Stopping;  // what comes now waits for the next start
  }
  if (!asked) hooks_.log("toolguard mcp: the server \"" + name() + "\" ended (" + end.why + ")");
  session_->serverGone(end.why);
  session_->clientGone();
  session_->waitForDecisions(limits_.shutdown_grace);
  to_server_->finish();
  if (!was_ready) {
    const std::string why = "ended before it was ready (" + end.why + ")";
    failQueued(why);
    if (hooks_.initialized) {
      hooks_.initialized(errorResponse(init_id_, kServerUnavailable,
                                       "toolguard mcp: the server \"" + name() + "\" " + why));
    }
  }
  std::lock_guard lock(mutex_);
  session_.reset();
  upstream_.reset();
  to_server_.reset();
}

void GatewayMember::onSessionOutput(std::string line) {
  const MessageShape shape = scanMessage(line);
  if (shape.kind == MessageKind::Response && shape.id == json(init_id_)) {
    onInitialized(line);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    last_activity_ = MemberClock::now();
    if (shape.kind == MessageKind::Response) in_flight_.erase(idKey(shape.id));
  }
  hooks_.to_client(std::move(line), shape);
}

void GatewayMember::errorToClient(const json& response) {
  hooks_.to_client(toLine(response), shapeOf(response));
}

void GatewayMember::onInitialized(const std::string& line) {
  const json response = json::parse(line, nullptr, false);
  std::shared_ptr<Session> session;
  {
    std::lock_guard lock(mutex_);
    session = session_;
  }
  if (!session) return;
  if (hooks_.initialized) hooks_.initialized(response);
  if (!response.is_object() || !response.contains("result")) {
    std::string why = "refused initialize";
    if (response.is_object() && response.contains("error")) {
      why += ": " + errorMessageOf(response["error"], "an error");
    }
    hooks_.log("toolguard mcp: the server \"" + name() + "\" " + why);
    failQueued(why);
    {
      std::lock_guard lock(mutex_);
      stop_asked_ = true;
    }
    wake_.wake();
    return;
  }
  session->fromClient(toLine({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  // What waited for the start goes first, in order; then the member is
  // ready and later messages go straight to the Session.
  for (;;) {
    std::deque<std::pair<std::string, json>> waiting;
    {
      std::lock_guard lock(mutex_);
      if (queued_.empty()) {
        if (state_ == State::Starting) state_ = State::Ready;
        reached_ready_ = true;
        last_activity_ = MemberClock::now();
        return;
      }
      waiting.swap(queued_);
      for (const auto& [queued_line, id] : waiting) {
        if (!id.is_null()) in_flight_.insert(idKey(id));
      }
    }
    for (const auto& [queued_line, id] : waiting) session->fromClient(queued_line);
  }
}

}  // namespace toolguard::mcp
