#pragma once
// Internal: the server side of the MCP proxy, whatever carries it: a child
// process on pipes (the stdio transport) or a server reached by URL (the
// Streamable HTTP transport). Either way the proxy writes the client's
// messages to the server as lines on one descriptor and reads the server's
// messages as lines from another, so the relay loop and the Session do not
// know which it is.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace toolguard::mcp {

class LineWriter;

/// How the server's side ended.
struct UpstreamEnd {
  int exit_code = 0;           ///< the server's exit code, or 1 when it was lost
  std::string why;             ///< "exit code 3", "the server ended the session", ...
  bool stopped_by_us = false;  ///< the proxy had to force it (a signal, a cut connection)
};

/// The server, as the relay loop sees it.
class Upstream {
 public:
  virtual ~Upstream() = default;
  /// The descriptor the proxy writes the server's messages to, one per line;
  /// the caller owns it and closes it when the client has left (the
  /// server's cue to finish).
  virtual int releaseInput() = 0;
  /// The descriptor the server's messages are read from, one per line; it
  /// ends when the server's side ended.
  virtual int outputFd() const = 0;
  /// The client left and the server's side has not ended after a grace
  /// time: 1 asks harder (SIGTERM; for HTTP, cut every exchange), 2 forces
  /// (SIGKILL).
  virtual void escalate(int level) = 0;
  /// Waits (up to `grace` before forcing) for the server's side to end.
  virtual UpstreamEnd stop(std::chrono::milliseconds grace) = 0;
  /// Sends `line` at once, on the caller's thread, when the upstream can do
  /// so without waiting and nothing written to its input is still before
  /// it; false: write it to the input descriptor as usual.
  virtual bool trySendNow(std::string_view line) {
    (void)line;
    return false;
  }
  /// Hands the server's messages to `on_line` on the upstream's own threads
  /// (waiting while `full()`), instead of writing them to outputFd(), which
  /// then only ends. False when the upstream has no threads of its own (a
  /// child's output is read from outputFd()). Called before any message.
  virtual bool deliverTo(std::function<void(std::string_view)> on_line,
                         std::function<bool()> full) {
    (void)on_line;
    (void)full;
    return false;
  }
  /// For the thread `owner`, whose loop polls anyway: from now on the
  /// answer to a message that thread sends by trySendNow is waited for by
  /// its loop (answerFds, answerReady) rather than by a thread woken for
  /// it, a wake-up fewer per call. The loop must then call both on every
  /// turn.
  virtual void pollAnswersInOwnerLoop(std::thread::id owner) { (void)owner; }
  /// Appends the descriptors whose readiness means such an answer came.
  virtual void answerFds(std::vector<int>& fds) const { (void)fds; }
  /// On the owner's thread, for a descriptor of answerFds() that polled
  /// readable (or broke): reads the answer there when all of it arrived,
  /// else hands its reading to a thread of the upstream's.
  virtual void answerReady(int fd) { (void)fd; }
};

/// The Session's sink toward `upstream`: a line goes out at once when the
/// upstream can send it now and nothing waits in `writer` before it, else
/// through `writer` (to the upstream's input descriptor).
std::function<void(std::string)> sendToUpstream(std::shared_ptr<Upstream> upstream,
                                                std::shared_ptr<LineWriter> writer);

/// A server started as `command` (argv[0] looked up in PATH) on pipes.
/// Throws std::system_error naming the command when it cannot be started.
std::unique_ptr<Upstream> childUpstream(const std::vector<std::string>& command);

}  // namespace toolguard::mcp
