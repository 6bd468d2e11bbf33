#pragma once
// Internal: the server side of the MCP proxy, whatever carries it: a child
// process on pipes (the stdio transport) or a server reached by URL (the
// Streamable HTTP transport). Either way the proxy writes the client's
// messages to the server as lines on one descriptor and reads the server's
// messages as lines from another, so the relay loop and the Session do not
// know which it is.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace toolguard::mcp {

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
};

/// A server started as `command` (argv[0] looked up in PATH) on pipes.
/// Throws std::system_error naming the command when it cannot be started.
std::unique_ptr<Upstream> childUpstream(const std::vector<std::string>& command);

}  // namespace toolguard::mcp
