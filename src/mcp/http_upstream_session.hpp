#pragma once
// Internal: the proxy's Upstream for a server over MCP's Streamable HTTP
// transport (mcp/http_upstream.hpp). Its parts: sending the proxy's
// messages (http_upstream.cpp) and reading what comes back, the server's
// own stream, failures and the end (http_upstream_answers.cpp).
//
// Threads: one sender reads the proxy's lines from a pipe and POSTs each
// message, in order (the proxy's own thread may send one itself on a kept
// connection when nothing is before it: trySendNow); a message's answer is
// read on one of a few kept worker threads (a tools/call may stream for
// minutes while other calls go on), and an initialize's headers (the
// session id) before anything else is sent. The server's messages go to
// the proxy as whole lines, from whichever thread read them.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <list>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "http/http_stream.hpp"
#include "mcp/exchange_workers.hpp"
#include "mcp/http_exchange.hpp"
#include "mcp/http_upstream.hpp"
#include "mcp/line_io.hpp"
#include "mcp/message_pipe.hpp"
#include "mcp/upstream.hpp"

namespace toolguard::mcp::http_upstream {

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

  UpstreamEnd stop(std::chrono::milliseconds) override;

  void pollAnswersInOwnerLoop(std::thread::id owner) override { owner_ = owner; }
  void answerFds(std::vector<int>& fds) const override;
  void answerReady(int fd) override;

 private:
  // An answer the owner's loop waits for (pollAnswersInOwnerLoop).
  struct ParkedAnswer {
    std::shared_ptr<Exchange> exchange;
    std::shared_ptr<HttpResponseStream> stream;
    std::function<void()> job;  // reads it (finishPost)
    std::vector<Json> ids;      // what it answers, failed if no thread can read it
  };

  // Reads an answer on a worker; fails its requests when no thread can.
  void readOnWorker(std::function<void()> job, const std::shared_ptr<Exchange>& exchange,
                    const std::vector<Json>& ids);

  // Hands every parked answer to the workers, and parks no more: the
  // owner's loop may not turn again (the client left, the proxy stops).
  void releaseParked();

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

  void sendLoop();

  // The proxy's own thread: the line goes out now on a kept connection
  // when nothing is before it (the sender idle, its pipe empty); false
  // leaves it to the pipe and the sender.
  bool trySendNow(std::string_view line) override;

  // Sends one line of the proxy's (`may_connect`: false on the proxy's
  // thread, which takes only a kept connection and never waits for one);
  // false when it left the line for the sender.
  bool send(std::string_view line, bool may_connect = true);

  // Nothing else is sent until initialize is answered: its head is read
  // here, with a deadline, and its session id taken.
  bool readInitializeHead(HttpResponseStream& stream, std::string& error);

  // The client left: the server's stream closes, the exchanges in flight
  // finish (or escalate() cuts them), the session is ended with DELETE.
  void finishInput();

  // --- one exchange ---

  std::vector<std::pair<std::string, std::string>> commonHeaders() const;

  // Connects and sends `request` on `exchange` (which holds the stream, so
  // that it can be cut, until a DetachOnExit lets go); nullptr (and `error`
  // set) when it cannot.
  std::shared_ptr<HttpResponseStream> start(Exchange& exchange, const HttpRequest& request,
                                            std::string& error, bool may_connect = true);

  // The rest of a POST, on a worker: its head (initialize's was read by
  // the sender), its answer, and its connection kept for the next.
  void finishPost(Exchange& exchange, const std::shared_ptr<HttpResponseStream>& stream,
                  const Outgoing& out);

  // Reads what the server answered to `out` on `stream`.
  void answer(Exchange& exchange, HttpResponseStream& stream, const Outgoing& out,
              const std::function<void()>& read_whole);

  // GET with Last-Event-ID: the rest of a POST's event stream. True when it
  // brought an event.
  bool resume(Exchange& exchange, std::set<std::string>& pending, std::string& last_id,
              long& retry_ms);

  // Reads events from `stream` until it ends, or (`until_answered`) until
  // every pending request is answered; returns how many it passed on. An
  // event the stream broke in is not taken (nor its id: a resumption asks
  // for it again).
  size_t readEvents(HttpResponseStream& stream, std::set<std::string>& pending, bool until_answered,
                    std::string& last_id, long& retry_ms);

  // --- the server's own stream ---

  void openServerStream();

  void serverStreamLoop(Exchange& exchange);

  // Waits `ms`, or less when the proxy stops; false when it stopped.
  bool waitBeforeRetry(long ms);

  // --- what reaches the proxy ---

  // Writes the message `data` holds to the proxy as one line; returns the
  // ids (as JSON text) of the requests it answers.
  std::vector<std::string> emit(std::string_view data);

  // Answers each request with a JSON-RPC error the client reads (not when
  // the client has left).
  void failRequests(const std::vector<Json>& ids, const std::string& why);

  // --- the end ---

  void lose(const std::string& why);

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

  void cutAll();

  // Joins the exchanges that finished (all of them when `all`).
  void joinExchanges(bool all);

  HttpUpstreamOptions options_;
  HttpUrl url_;
  int in_read_ = -1, in_write_ = -1;
  MessagePipe output_;  // the server's messages, to the proxy
  KeptConnections kept_;
  int wake_read_ = -1, wake_write_ = -1;
  std::thread sender_;
  std::mutex send_mutex_;  // held by whoever sends: the sender, or trySendNow
  std::atomic<bool> cut_by_us_{false};
  // The thread whose loop waits for the answers it sent (a message sent
  // from any other thread, such as an approval's, is read on a worker:
  // that loop would not know to wait for it).
  std::atomic<std::thread::id> owner_{};

  mutable std::mutex parked_mutex_;     // guards what follows
  std::map<int, ParkedAnswer> parked_;  // by its connection's descriptor
  bool parking_closed_ = false;

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

}  // namespace toolguard::mcp::http_upstream
