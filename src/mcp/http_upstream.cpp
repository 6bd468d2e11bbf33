// A server over MCP's Streamable HTTP transport, as the proxy's Upstream
// (mcp/http_upstream.hpp).
//
// Threads: one sender reads the proxy's lines and POSTs each message on an
// exchange thread of its own (a tools/call may stream for minutes while
// other calls go on); it waits until the message is sent before the next
// one goes, and for an initialize until its answer's headers (the session
// id) arrived. Every message from the server, whichever exchange brought
// it, is written to the proxy's pipe as one line under one lock.
#include "http_upstream.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "exchange_workers.hpp"
#include "http/http_stream.hpp"
#include "http_exchange.hpp"
#include "line_io.hpp"
#include "message_pipe.hpp"

namespace toolguard::mcp {
namespace {

using detail::HttpRequest;
using detail::HttpResponseStream;
using detail::HttpUrl;
using Read = HttpResponseStream::Read;
using Json = nlohmann::json;

constexpr long kConnectMs = 10000;
constexpr long kSendMs = 30000;
constexpr long kDeleteMs = 2000;
constexpr long kInitializeHeadMs = 60000;  // an initialize unanswered this long fails
constexpr int kResumeAttempts = 3;         // reconnects in a row that brought nothing
constexpr int kServerStreamFailures = 5;
constexpr long kDefaultRetryMs = 1000;
constexpr size_t kLongestSessionId = 1024;
constexpr size_t kMostExchanges = 256;  // messages in flight at once
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

class HttpUpstream final : public Upstream {
 public:
  HttpUpstream(HttpUpstreamOptions options, HttpUrl url)
      : options_(std::move(options)), url_(std::move(url)) {
    int in[2], wake[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
      throw std::system_error(errno, std::generic_category(), "pipe");
    if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
      closeAll({in[0], in[1]});
      throw std::system_error(errno, std::generic_category(), "pipe");
    }
    in_read_ = in[0];
    in_write_ = in[1];
    wake_read_ = wake[0];
    wake_write_ = wake[1];
    sender_ = std::thread([this] { sendLoop(); });
  }

  ~HttpUpstream() override {
    wakeSender();
    cutAll();
    if (sender_.joinable()) sender_.join();
    joinExchanges(true);
    output_.closeWriteEnd();
    closeAll({in_read_, in_write_, wake_read_, wake_write_});
  }

  int releaseInput() override { return std::exchange(in_write_, -1); }
  bool deliverTo(std::function<void(std::string_view)> on_line,
                 std::function<bool()> full) override {
    output_.deliverTo(std::move(on_line), std::move(full));
    return true;
  }
  int outputFd() const override { return output_.readFd(); }
  void escalate(int) override {
    cut_by_us_ = true;
    cutAll();
  }

  UpstreamEnd stop(std::chrono::milliseconds) override {
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

 private:
  static void closeAll(std::initializer_list<int> fds) {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }

  void log(const std::string& line) const {
    if (options_.log)
      options_.log("toolguard mcp: the server \"" + options_.server_name + "\": " + line);
  }

  void wakeSender() {
    const char byte = 1;
    (void)!::write(wake_write_, &byte, 1);
  }

  // --- the sender: the proxy's lines, one POST each ---

  void sendLoop() {
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
  bool trySendNow(std::string_view line) override {
    const std::unique_lock<std::mutex> sending(send_mutex_, std::try_to_lock);
    if (!sending.owns_lock() || in_read_ < 0) return false;
    int queued = 0;
    if (::ioctl(in_read_, FIONREAD, &queued) != 0 || queued != 0) return false;
    return send(line, false);
  }

  // Sends one line of the proxy's (`may_connect`: false on the proxy's
  // thread, which takes only a kept connection and never waits for one);
  // false when it left the line for the sender.
  bool send(std::string_view line, bool may_connect = true) {
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
    if (!workers_.run(std::move(job))) {
      exchange->detach();
      exchange->done = true;
      log("no thread for a message");
      failRequests(ids, "the proxy could not start the exchange");
    }
    return true;
  }

  // Nothing else is sent until initialize is answered: its head is read
  // here, with a deadline, and its session id taken.
  bool readInitializeHead(HttpResponseStream& stream, std::string& error) {
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
  void finishInput() {
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

  std::vector<std::pair<std::string, std::string>> commonHeaders() const {
    std::vector<std::pair<std::string, std::string>> headers = options_.headers;
    const std::lock_guard<std::mutex> hold(mutex_);
    if (!session_id_.empty()) headers.emplace_back("Mcp-Session-Id", session_id_);
    if (!protocol_version_.empty()) headers.emplace_back("MCP-Protocol-Version", protocol_version_);
    return headers;
  }

  // Connects and sends `request` on `exchange` (which holds the stream, so
  // that it can be cut, until a DetachOnExit lets go); nullptr (and `error`
  // set) when it cannot.
  std::shared_ptr<HttpResponseStream> start(Exchange& exchange, const HttpRequest& request,
                                            std::string& error, bool may_connect = true) {
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
  void finishPost(Exchange& exchange, const std::shared_ptr<HttpResponseStream>& stream,
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

  // Reads what the server answered to `out` on `stream`.
  void answer(Exchange& exchange, HttpResponseStream& stream, const Outgoing& out,
              const std::function<void()>& read_whole) {
    const int status = stream.status();
    if (status == 404 && !sessionId().empty()) {
      lose("it ended the session (HTTP 404 to a request in it)");
      return;
    }
    if (status / 100 != 2) {
      std::string why =
          "it answered HTTP " + std::to_string(status) + errorDetail(stream, options_.headers);
      if (out.initialize && (status == 404 || status == 405)) {
        why +=
            "; it does not seem to take MCP's Streamable HTTP transport (a server that offers "
            "only the older HTTP+SSE transport is not supported)";
      }
      if (out.request_ids.empty())
        log("a notification or response to it got HTTP " + std::to_string(status));
      failRequests(out.request_ids, why);
      return;
    }
    if (out.request_ids.empty()) return;  // 202 for notifications and responses
    std::set<std::string> pending;
    for (const Json& id : out.request_ids) pending.insert(id.dump());
    const std::string type = stream.mediaType();
    if (type == "application/json") {
      std::string body;
      if (readWhole(stream, body, options_.max_message_bytes, -1)) {
        read_whole();
        for (const std::string& id : emit(body)) pending.erase(id);
      } else {
        log("its answer could not be read: " + stream.error());
      }
    } else if (type == "text/event-stream") {
      std::string last_id;
      long retry_ms = kDefaultRetryMs;
      readEvents(stream, pending, true, last_id, retry_ms);
      // Broken before it answered: the stream is resumed where it broke, as
      // long as each reconnect brings something (a server may close the
      // stream on purpose during a long call).
      for (int fruitless = 0; !pending.empty() && !last_id.empty() && fruitless < kResumeAttempts &&
                              !exchange.isCut() && waitBeforeRetry(retry_ms);) {
        fruitless = resume(exchange, pending, last_id, retry_ms) ? 0 : fruitless + 1;
      }
    } else {
      failRequests(out.request_ids,
                   "it answered with " +
                       (type.empty() ? std::string("no content type") : visiblePart(type, 100)) +
                       ", neither JSON nor an event stream");
      return;
    }
    std::vector<Json> unanswered;
    for (const Json& id : out.request_ids) {
      if (pending.count(id.dump()) != 0) unanswered.push_back(id);
    }
    failRequests(unanswered, "it closed the answer's stream before it answered");
  }

  // GET with Last-Event-ID: the rest of a POST's event stream. True when it
  // brought an event.
  bool resume(Exchange& exchange, std::set<std::string>& pending, std::string& last_id,
              long& retry_ms) {
    HttpRequest request{"GET", commonHeaders(), "", false};
    request.headers.emplace_back("Accept", "text/event-stream");
    request.headers.emplace_back("Last-Event-ID", last_id);
    std::string error;
    const DetachOnExit detach{exchange};
    std::shared_ptr<HttpResponseStream> stream = start(exchange, request, error);
    if (!stream || !stream->readHead(-1) || stream->status() / 100 != 2 ||
        stream->mediaType() != "text/event-stream") {
      return false;
    }
    return readEvents(*stream, pending, true, last_id, retry_ms) > 0;
  }

  // Reads events from `stream` until it ends, or (`until_answered`) until
  // every pending request is answered; returns how many it passed on. An
  // event the stream broke in is not taken (nor its id: a resumption asks
  // for it again).
  size_t readEvents(HttpResponseStream& stream, std::set<std::string>& pending, bool until_answered,
                    std::string& last_id, long& retry_ms) {
    EventStreamCursor cursor{last_id, retry_ms, ""};
    const size_t taken =
        readEventStream(stream, options_.max_message_bytes, cursor, [&](std::string_view data) {
          for (const std::string& id : emit(data)) pending.erase(id);
          return !(until_answered && pending.empty());
        });
    if (!cursor.error.empty()) log("its event stream was cut: " + cursor.error);
    return taken;
  }

  // --- the server's own stream ---

  void openServerStream() {
    auto exchange = std::make_shared<Exchange>();
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      if (server_stream_ || input_ended_ || lost_ || cut_all_) return;
      server_stream_ = exchange;
      exchanges_.push_back(exchange);
    }
    try {
      exchange->thread = std::thread([this, exchange] {
        try {
          serverStreamLoop(*exchange);
        } catch (const std::exception& e) {
          log(std::string("its stream failed: ") + e.what());
        }
        exchange->done = true;
      });
    } catch (const std::system_error& e) {
      exchange->done = true;
      log(std::string("its stream could not be opened: ") + e.what());
    }
  }

  void serverStreamLoop(Exchange& exchange) {
    std::string last_id;
    long retry_ms = kDefaultRetryMs;
    int failures = 0;
    std::set<std::string> none;
    while (!exchange.isCut() && !isLost()) {
      HttpRequest request{"GET", commonHeaders(), "", false};
      request.headers.emplace_back("Accept", "text/event-stream");
      if (!last_id.empty()) request.headers.emplace_back("Last-Event-ID", last_id);
      std::string error;
      bool brought = false;
      {
        const DetachOnExit detach{exchange};
        std::shared_ptr<HttpResponseStream> stream = start(exchange, request, error);
        if (stream && stream->readHead(-1)) {
          const int status = stream->status();
          if (status == 405) return;  // the server offers no stream of its own
          if (status == 404 && !sessionId().empty()) {
            lose("it ended the session (HTTP 404 to its stream)");
            return;
          }
          if (status / 100 == 2 && stream->mediaType() == "text/event-stream") {
            brought = readEvents(*stream, none, false, last_id, retry_ms) > 0;
          }
        }
      }
      // A stream that brought nothing counts as a failure; waits grow.
      failures = brought ? 0 : failures + 1;
      if (failures >= kServerStreamFailures) {
        if (!exchange.isCut()) {
          log("its own stream could not be opened again: its notifications will not arrive");
        }
        return;
      }
      if (!waitBeforeRetry(std::min(retry_ms << failures, kLongestRetryMs))) return;
    }
  }

  // Waits `ms`, or less when the proxy stops; false when it stopped.
  bool waitBeforeRetry(long ms) {
    std::unique_lock<std::mutex> hold(mutex_);
    return !retry_wait_.wait_for(hold, std::chrono::milliseconds(ms),
                                 [this] { return input_ended_ || lost_ || cut_all_; });
  }

  // --- what reaches the proxy ---

  // Writes the message `data` holds to the proxy as one line; returns the
  // ids (as JSON text) of the requests it answers.
  std::vector<std::string> emit(std::string_view data) {
    std::vector<std::string> answered;
    const Json message = Json::parse(data, nullptr, false);
    if (message.is_discarded()) {
      log("it sent a message that is not JSON (dropped)");
      return answered;
    }
    std::string version;
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      answered = answeredIds(message, initialize_id_, version);
      if (!version.empty()) protocol_version_ = version;
    }
    // The proxy reads one message per line.
    const bool one_line = data.find_first_of("\r\n") == std::string_view::npos;
    output_.writeLine(one_line ? std::string(data)
                               : message.dump(-1, ' ', false, Json::error_handler_t::replace));
    return answered;
  }

  // Answers each request with a JSON-RPC error the client reads (not when
  // the client has left).
  void failRequests(const std::vector<Json>& ids, const std::string& why) {
    if (ids.empty()) return;
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      if (input_ended_) return;
    }
    const std::string message =
        "toolguard mcp: the server \"" + options_.server_name + "\" did not answer: " + why;
    for (const Json& id : ids) {
      output_.writeLine(
          Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32603}, {"message", message}}}}
              .dump(-1, ' ', false, Json::error_handler_t::replace));
    }
  }

  // --- the end ---

  void lose(const std::string& why) {
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      if (lost_) return;
      lost_ = true;
      lost_why_ = why;
    }
    retry_wait_.notify_all();
    log(why);
    // The proxy sees the server's side end: the Session answers what is
    // pending with errors and the proxy exits.
    output_.closeWriteEnd();
  }

  bool isStopping() const {
    const std::lock_guard<std::mutex> hold(mutex_);
    return cut_all_ || input_ended_;
  }
  bool isLost() const {
    const std::lock_guard<std::mutex> hold(mutex_);
    return lost_;
  }
  std::string lostWhy() const {
    const std::lock_guard<std::mutex> hold(mutex_);
    return lost_why_;
  }
  std::string sessionId() const {
    const std::lock_guard<std::mutex> hold(mutex_);
    return session_id_;
  }

  void cutAll() {
    std::vector<std::shared_ptr<Exchange>> exchanges;
    {
      const std::lock_guard<std::mutex> hold(mutex_);
      cut_all_ = true;
      output_.stopWaiting();
      exchanges.assign(exchanges_.begin(), exchanges_.end());
    }
    retry_wait_.notify_all();
    for (const auto& exchange : exchanges) exchange->cutOff();
  }

  // Joins the exchanges that finished (all of them when `all`).
  void joinExchanges(bool all) {
    for (;;) {
      std::shared_ptr<Exchange> next;
      {
        const std::lock_guard<std::mutex> hold(mutex_);
        for (auto it = exchanges_.begin(); it != exchanges_.end(); ++it) {
          if (all || (*it)->done) {
            next = *it;
            exchanges_.erase(it);
            break;
          }
        }
      }
      if (!next) break;
      if (next->thread.joinable()) next->thread.join();
    }
    if (all) workers_.waitForJobs();
  }

  HttpUpstreamOptions options_;
  HttpUrl url_;
  int in_read_ = -1, in_write_ = -1;
  MessagePipe output_;  // the server's messages, to the proxy
  KeptConnections kept_;
  int wake_read_ = -1, wake_write_ = -1;
  std::thread sender_;
  std::mutex send_mutex_;  // held by whoever sends: the sender, or trySendNow
  std::atomic<bool> cut_by_us_{false};

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable retry_wait_;
  std::string session_id_;
  std::string protocol_version_;
  std::string initialize_id_;
  std::list<std::shared_ptr<Exchange>> exchanges_;
  std::shared_ptr<Exchange> server_stream_;
  bool input_ended_ = false;
  bool cut_all_ = false;
  bool lost_ = false;
  std::string lost_why_;
  // Last: its threads are joined before anything they use goes.
  ExchangeWorkers workers_;
};

}  // namespace

std::unique_ptr<Upstream> httpUpstream(HttpUpstreamOptions options) {
  HttpUrl url = upstreamUrl(options.url);
  return std::make_unique<HttpUpstream>(std::move(options), std::move(url));
}

}  // namespace toolguard::mcp
