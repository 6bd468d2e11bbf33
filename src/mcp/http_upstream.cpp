// Sending the proxy's messages to a server over Streamable HTTP: the sender
// thread, a POST per message, and the session's end (mcp/http_upstream_session.hpp).
#include <sys/ioctl.h>

#include "mcp/http_upstream_session.hpp"

namespace toolguard::mcp {
namespace http_upstream {
namespace {

// The largest request the proxy's own thread sends: one that fits an empty
// socket send buffer (never under 4 KiB), so the send cannot wait; larger
// ones go through the sender.
constexpr size_t kMostSentAtOnce = 4096;

// About how many bytes `request` takes on the wire.
size_t requestBytes(const detail::HttpRequest& request) {
  size_t bytes = request.body.size() + 256;  // the request line, Host, Content-Length
  for (const auto& [name, value] : request.headers) bytes += name.size() + value.size() + 4;
  return bytes;
}

}  // namespace

UpstreamEnd HttpUpstream::stop(std::chrono::milliseconds) {
  wakeSender();
  cutAll();
  if (sender_.joinable()) sender_.join();
  // Nobody reads the proxy's messages any more: a writer blocked on a
  // full pipe gets EPIPE instead of waiting forever.
  {
    const std::lock_guard<std::mutex> sending(send_mutex_);
    if (in_read_ >= 0) ::close(in_read_);
    in_read_ = -1;
  }
  joinExchanges(true);
  output_.closeWriteEnd();
  const std::lock_guard<std::mutex> hold(mutex_);
  if (lost_) return UpstreamEnd{1, lost_why_, false};
  return UpstreamEnd{0, "the session ended", cut_by_us_};
}

// --- the sender: the proxy's lines, one POST each ---
void HttpUpstream::sendLoop() {
  LineSplitter lines(options_.max_message_bytes);
  auto on_line = [this](std::string_view line) { send(line); };
  auto on_too_long = [this] { log("a message to it was longer than the limit and was dropped"); };
  char buffer[65536];
  for (;;) {
    pollfd fds[2] = {{in_read_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents != 0) return;  // stop(): the proxy is done with the server
    const std::lock_guard<std::mutex> sending(send_mutex_);
    const ssize_t n = ::read(in_read_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    lines.feed(std::string_view(buffer, static_cast<size_t>(n)), on_line, on_too_long);
  }
  lines.finish(on_line);
  finishInput();
}

// The proxy's own thread: the line goes out now on a kept connection
// when nothing is before it (the sender idle, its pipe empty); false
// leaves it to the pipe and the sender.
bool HttpUpstream::trySendNow(std::string_view line) {
  const std::unique_lock<std::mutex> sending(send_mutex_, std::try_to_lock);
  if (!sending.owns_lock() || in_read_ < 0) return false;
  int queued = 0;
  if (::ioctl(in_read_, FIONREAD, &queued) != 0 || queued != 0) return false;
  return send(line, false);
}

// Sends one line of the proxy's (`may_connect`: false on the proxy's
// thread, which takes only a kept connection and never waits for one);
// false when it left the line for the sender.
bool HttpUpstream::send(std::string_view line, bool may_connect) {
  Outgoing out;
  if (!readOutgoing(line, out)) {
    if (!may_connect) return false;
    log("a message to it is not JSON and was dropped");
    return true;
  }
  if (!may_connect && (out.initialize || isLost() || kept_.empty())) return false;
  if (isLost()) {
    failRequests(out.request_ids, lostWhy());
    return true;
  }
  if (out.initialize) {
    const std::lock_guard<std::mutex> hold(mutex_);
    initialize_id_ = out.request_ids.front().dump();
  }
  joinExchanges(false);
  auto exchange = std::make_shared<Exchange>();
  std::string refused;
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    if (cut_all_) {
      refused = "the proxy is stopping";
    } else if (exchanges_.size() >= kMostExchanges) {
      refused = "too many messages to it are in flight";
    } else {
      exchanges_.push_back(exchange);
    }
  }
  if (!refused.empty()) {
    failRequests(out.request_ids, refused);
    return true;
  }
  // Sent from this thread, in order; the answer is read on a worker.
  HttpRequest request{"POST", commonHeaders(), out.text, true};
  request.headers.emplace_back("Content-Type", "application/json");
  request.headers.emplace_back("Accept", "application/json, text/event-stream");
  std::string error;
  if (!may_connect && requestBytes(request) > kMostSentAtOnce) {
    exchange->done = true;
    return false;  // what may not fit the socket's buffer at once: the sender sends it
  }
  std::shared_ptr<HttpResponseStream> stream = start(*exchange, request, error, may_connect);
  if (!stream && !may_connect) {
    exchange->done = true;
    return false;  // no kept connection took it: the sender connects
  }
  if (!stream || (out.initialize && !readInitializeHead(*stream, error))) {
    exchange->detach();
    exchange->done = true;
    failRequests(out.request_ids, error);
    return true;
  }
  const std::vector<Json> ids = out.request_ids;
  auto job = [this, exchange, stream, out = std::move(out)] {
    try {
      finishPost(*exchange, stream, out);
    } catch (const std::exception& e) {
      log(std::string("an exchange failed: ") + e.what());
      failRequests(out.request_ids, "the exchange failed");
    }
    exchange->done = true;
  };
  if (!may_connect && owner_.load() == std::this_thread::get_id()) {
    // Sent on the owner's thread: its loop waits for the answer.
    const std::lock_guard<std::mutex> hold(parked_mutex_);
    if (!parking_closed_) {
      const int fd = stream->fd();
      parked_.insert_or_assign(fd, ParkedAnswer{exchange, stream, std::move(job), ids});
      return true;
    }
  }
  readOnWorker(std::move(job), exchange, ids);
  return true;
}

void HttpUpstream::readOnWorker(std::function<void()> job,
                                const std::shared_ptr<Exchange>& exchange,
                                const std::vector<Json>& ids) {
  if (!workers_.run(std::move(job))) {
    exchange->detach();
    exchange->done = true;
    log("no thread for a message");
    failRequests(ids, "the proxy could not start the exchange");
  }
}

void HttpUpstream::answerFds(std::vector<int>& fds) const {
  const std::lock_guard<std::mutex> hold(parked_mutex_);
  for (const auto& [fd, parked] : parked_) fds.push_back(fd);
}

void HttpUpstream::answerReady(int fd) {
  std::optional<ParkedAnswer> ready;
  {
    const std::lock_guard<std::mutex> hold(parked_mutex_);
    auto it = parked_.find(fd);
    if (it == parked_.end()) return;
    ready = std::move(it->second);
    parked_.erase(it);
  }
  // A whole JSON answer is read here: nothing in reading it can wait (nor
  // in passing it on, while the client's queue has room; the owner's loop
  // must not wait for a client that does not read, or it could not stop).
  // An event stream (which may need resuming after a pause) or an answer
  // still arriving is read on a worker, as any other.
  if (!output_.receiverFull() &&
      ready->stream->arrivedAnswerType() == std::optional<std::string>("application/json")) {
    ready->job();
    return;
  }
  readOnWorker(std::move(ready->job), ready->exchange, ready->ids);
}

void HttpUpstream::releaseParked() {
  std::map<int, ParkedAnswer> parked;
  {
    const std::lock_guard<std::mutex> hold(parked_mutex_);
    parking_closed_ = true;
    parked.swap(parked_);
  }
  for (auto& [fd, answer] : parked)
    readOnWorker(std::move(answer.job), answer.exchange, answer.ids);
}

// Nothing else is sent until initialize is answered: its head is read
// here, with a deadline, and its session id taken.
bool HttpUpstream::readInitializeHead(HttpResponseStream& stream, std::string& error) {
  if (auto head = stream.readHead(kInitializeHeadMs); !head) {
    error = head.error();
    return false;
  }
  if (stream.status() / 100 != 2) return true;
  const std::string session = stream.header("mcp-session-id");
  if (!session.empty() && !isVisibleAscii(session, kLongestSessionId)) {
    error = "its session id is not visible ASCII of at most 1024 bytes";
    return false;
  }
  const std::lock_guard<std::mutex> hold(mutex_);
  session_id_ = session;
  return true;
}

// The client left: the server's stream closes, the exchanges in flight
// finish (or escalate() cuts them), the session is ended with DELETE.
void HttpUpstream::finishInput() {
  releaseParked();
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    input_ended_ = true;
    if (server_stream_) server_stream_->cutOff();
  }
  retry_wait_.notify_all();
  joinExchanges(true);
  const std::string session = sessionId();
  if (!session.empty() && !isLost()) {
    HttpRequest request{"DELETE", commonHeaders(), "", false};
    if (auto stream = HttpResponseStream::open(url_, request, kDeleteMs); !stream) {
      log("the session could not be ended: " + stream.error());
    }
  }
  output_.closeWriteEnd();
}

// --- one exchange ---
std::vector<std::pair<std::string, std::string>> HttpUpstream::commonHeaders() const {
  std::vector<std::pair<std::string, std::string>> headers = options_.headers;
  const std::lock_guard<std::mutex> hold(mutex_);
  if (!session_id_.empty()) headers.emplace_back("Mcp-Session-Id", session_id_);
  if (!protocol_version_.empty()) headers.emplace_back("MCP-Protocol-Version", protocol_version_);
  return headers;
}

// Connects and sends `request` on `exchange` (which holds the stream, so
// that it can be cut, until a DetachOnExit lets go); nullptr (and `error`
// set) when it cannot.
std::shared_ptr<HttpResponseStream> HttpUpstream::start(Exchange& exchange,
                                                        const HttpRequest& request,
                                                        std::string& error, bool may_connect) {
  // A kept connection first. One that fails to take the request (the
  // server closed it as it was sent) has received no whole request, so
  // the request goes again on a new one.
  if (request.keep_alive) {
    while (std::shared_ptr<HttpResponseStream> kept = kept_.take()) {
      if (!may_connect && !kept->sendsAtOnce()) {
        kept_.keep(kept);  // the proxy's thread never waits on a socket
        return nullptr;
      }
      exchange.attach(kept);
      if (kept->send(url_, request, kSendMs)) return kept;
      exchange.detach();
    }
  }
  if (!may_connect) return nullptr;
  auto connected = HttpResponseStream::connect(url_, kConnectMs);
  if (!connected) {
    error = connected.error();
    return nullptr;
  }
  std::shared_ptr<HttpResponseStream> stream = std::move(*connected);
  exchange.attach(stream);
  if (auto sent = stream->send(url_, request, kSendMs); !sent) {
    error = sent.error();
    return nullptr;
  }
  return stream;
}

// The rest of a POST, on a worker: its head (initialize's was read by
// the sender), its answer, and its connection kept for the next.
void HttpUpstream::finishPost(Exchange& exchange, const std::shared_ptr<HttpResponseStream>& stream,
                              const Outgoing& out) {
  const DetachOnExit detach{exchange};
  if (!out.initialize) {
    if (auto head = stream->readHead(-1); !head) {
      failRequests(out.request_ids, head.error());
      return;
    }
  }
  const int status = stream->status();
  bool kept = false;
  // A connection whose answer is read whole is kept before that answer
  // is passed on, so that the client's next request finds it.
  auto keep = [&] {
    if (std::exchange(kept, true)) return;
    exchange.detach();  // before another exchange may take the connection
    if (!isStopping()) kept_.keep(stream);
  };
  answer(exchange, *stream, out, keep);
  keep();
  if (out.initialized && status / 100 == 2) openServerStream();
}

}  // namespace http_upstream

std::unique_ptr<Upstream> httpUpstream(HttpUpstreamOptions options) {
  detail::HttpUrl url = upstreamUrl(options.url);
  return std::make_unique<http_upstream::HttpUpstream>(std::move(options), std::move(url));
}

}  // namespace toolguard::mcp
