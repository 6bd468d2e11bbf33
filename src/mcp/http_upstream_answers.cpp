// Reading what a server over Streamable HTTP answers: a POST's JSON or
// event stream, resumed where it broke; the server's own GET stream; the
// errors for requests it cannot answer; losing the session and cutting
// every exchange (mcp/http_upstream_session.hpp).
#include "mcp/http_upstream_session.hpp"

namespace toolguard::mcp::http_upstream {

// Reads what the server answered to `out` on `stream`.
void HttpUpstream::answer(Exchange& exchange, HttpResponseStream& stream, const Outgoing& out,
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
bool HttpUpstream::resume(Exchange& exchange, std::set<std::string>& pending, std::string& last_id,
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
size_t HttpUpstream::readEvents(HttpResponseStream& stream, std::set<std::string>& pending,
                                bool until_answered, std::string& last_id, long& retry_ms) {
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
void HttpUpstream::openServerStream() {
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

void HttpUpstream::serverStreamLoop(Exchange& exchange) {
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
bool HttpUpstream::waitBeforeRetry(long ms) {
  std::unique_lock<std::mutex> hold(mutex_);
  return !retry_wait_.wait_for(hold, std::chrono::milliseconds(ms),
                               [this] { return input_ended_ || lost_ || cut_all_; });
}

// --- what reaches the proxy ---
// Writes the message `data` holds to the proxy as one line; returns the
// ids (as JSON text) of the requests it answers.
std::vector<std::string> HttpUpstream::emit(std::string_view data) {
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
void HttpUpstream::failRequests(const std::vector<Json>& ids, const std::string& why) {
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
void HttpUpstream::lose(const std::string& why) {
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

void HttpUpstream::cutAll() {
  releaseParked();
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
void HttpUpstream::joinExchanges(bool all) {
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

}  // namespace toolguard::mcp::http_upstream
