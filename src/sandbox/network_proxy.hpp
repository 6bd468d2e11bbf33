#pragma once
// The sandbox's network proxy. A sandboxed command with network Proxy runs
// in a private network namespace whose only way out is a listening socket
// made inside it and handed to the launching process: this proxy, which
// accepts there, lets through HTTP CONNECT and plain-HTTP requests to the
// hosts of `sandbox.hosts`, refuses the rest with 403, and tells the caller
// of each (the audit). It connects out from the launching process's own
// network, to the address it resolved and checked itself.

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "sandbox/proxy_hosts.hpp"
#include "toolguard/sandbox.hpp"

namespace toolguard::sandbox {

/// The address the proxy listens on inside the sandbox's network namespace.
inline constexpr const char* kProxyAddress = "127.0.0.1";
inline constexpr int kProxyPort = 3128;

/// Serves connections on a listening socket until stopped.
class NetworkProxy {
 public:
  /// Takes `listen_fd` (a listening TCP socket) and starts accepting.
  NetworkProxy(int listen_fd, std::vector<HostPattern> hosts,
               std::function<bool(const SandboxConnection&)> on_connection);
  ~NetworkProxy();
  NetworkProxy(const NetworkProxy&) = delete;
  NetworkProxy& operator=(const NetworkProxy&) = delete;

  /// Stops accepting, cuts the connections still open and waits for every
  /// thread of the proxy to end.
  void stop();

 private:
  void acceptLoop();
  void serve(int client);
  /// Tells the caller; false when it could not record the request.
  bool report(const SandboxConnection& connection);
  bool track(int fd);    ///< false once stopping
  void untrack(int fd);  ///< and closes it

  int listen_fd_;
  int wake_[2] = {-1, -1};  ///< a pipe: written to stop the accept loop
  std::vector<HostPattern> hosts_;
  std::function<bool(const SandboxConnection&)> on_connection_;
  std::mutex mutex_;
  std::condition_variable idle_;
  std::set<int> open_fds_;  ///< connections being served (shut down at stop)
  int serving_ = 0;         ///< connection threads still running
  bool stopping_ = false;
  std::thread acceptor_;
};

}  // namespace toolguard::sandbox
