#pragma once
// Internal: the pieces of one Streamable HTTP exchange of the MCP proxy
// (http_upstream.cpp): what a message the proxy sends is, an exchange that
// can be cut off in any phase, and reading the server's answers (whole
// bodies, error text without the proxy's credentials).
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "http/http_stream.hpp"

namespace toolguard::mcp {

/// One message the proxy sends, as the transport needs to know it.
struct Outgoing {
  std::string text;
  std::vector<nlohmann::json> request_ids;  ///< the requests in it, each must be answered
  bool initialize = false;
  bool initialized = false;  ///< notifications/initialized: the server's stream may open
};

/// Reads `line` into `out`; false when it is not JSON.
bool readOutgoing(std::string_view line, Outgoing& out);

/// An exchange that stop() or a lost session can cut off, in any phase. It
/// shares the stream it reads, so a cut never meets a stream already gone.
struct Exchange {
  std::mutex mutex;
  std::shared_ptr<detail::HttpResponseStream> stream;
  bool cut = false;
  std::thread thread;
  std::atomic<bool> done{false};

  void attach(const std::shared_ptr<detail::HttpResponseStream>& s) {
    const std::lock_guard<std::mutex> hold(mutex);
    stream = s;
    if (cut) s->abort();
  }
  void detach() {
    const std::lock_guard<std::mutex> hold(mutex);
    stream.reset();
  }
  void cutOff() {
    const std::lock_guard<std::mutex> hold(mutex);
    cut = true;
    if (stream != nullptr) stream->abort();
  }
  bool isCut() {
    const std::lock_guard<std::mutex> hold(mutex);
    return cut;
  }
};

/// Lets go of its exchange's stream on every way out of a scope.
struct DetachOnExit {
  Exchange& exchange;
  ~DetachOnExit() { exchange.detach(); }
};

/// Idle connections kept for later messages (at most 8).
class KeptConnections {
 public:
  /// An idle connection that may carry another request, ready for it, or
  /// nullptr (one the server closed meanwhile is dropped).
  std::shared_ptr<detail::HttpResponseStream> take();
  /// Keeps `stream` when its answer was read whole and it may be reused.
  void keep(const std::shared_ptr<detail::HttpResponseStream>& stream);
  /// True when no connection is kept.
  bool empty() {
    const std::lock_guard<std::mutex> hold(mutex_);
    return idle_.empty();
  }

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<detail::HttpResponseStream>> idle_;
};

/// `url` read as an upstream may use it: https:// anywhere, plain http://
/// only to a numeric loopback address (strictly: what inet_pton reads, so
/// that no name lookup can send a plain-text request elsewhere; localhost
/// is taken as 127.0.0.1). Throws std::invalid_argument saying why not.
detail::HttpUrl upstreamUrl(const std::string& url);

/// Visible ASCII only (what the transport allows in a session id), bounded.
bool isVisibleAscii(const std::string& text, size_t longest);

/// The first `longest` bytes of `text`, only visible ASCII and spaces kept.
std::string visiblePart(const std::string& text, size_t longest);

/// Reads the whole body (at most `limit` bytes), all of it within
/// `timeout_ms` (-1: no limit).
bool readWhole(detail::HttpResponseStream& stream, std::string& body, size_t limit,
               long timeout_ms);

/// `text` with every value of `headers` (and every word of one, so that the
/// token of "Bearer TOKEN" goes too) replaced by [REDACTED].
std::string withoutCredentials(std::string text,
                               const std::vector<std::pair<std::string, std::string>>& headers);

/// " (MESSAGE)" from an error answer's JSON-RPC error, when it has one, with
/// the values of `headers` (the server's credentials) taken out: a server
/// that echoes a rejected key must not hand it to the model. "" otherwise.
std::string errorDetail(detail::HttpResponseStream& stream,
                        const std::vector<std::pair<std::string, std::string>>& headers);

/// The longest a reconnection waits, whatever the server's retry says.
inline constexpr long kLongestRetryMs = 30000;

/// Where an event stream was left: the last complete event's id (a
/// resumption's Last-Event-ID) and the reconnection time the server asked.
struct EventStreamCursor {
  std::string& last_id;
  long& retry_ms;
  std::string error;  ///< why the stream was cut ("" when it ended or was left)
};

/// Reads events from `stream` until it ends or `on_message` (given each
/// message event's data) returns false; returns how many events it read.
/// An event the stream broke in is not taken, nor its id. Ids that are not
/// visible ASCII of at most 1 KiB are not kept; retry is held to 0.25-30 s.
size_t readEventStream(detail::HttpResponseStream& stream, size_t max_event_bytes,
                       EventStreamCursor& cursor,
                       const std::function<bool(std::string_view)>& on_message);

/// The ids (as JSON text) of the requests the server's `message` (or
/// batch) answers; `protocol_version` is set from the answer to the request
/// whose id is `initialize_id`, when it is visible ASCII.
std::vector<std::string> answeredIds(const nlohmann::json& message,
                                     const std::string& initialize_id,
                                     std::string& protocol_version);

}  // namespace toolguard::mcp
