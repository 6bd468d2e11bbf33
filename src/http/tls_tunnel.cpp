// TLS through the toolguard-http helper (http/tls_tunnel.hpp).
#include "http/tls_tunnel.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "http/http_helper.hpp"
#include "http/http_helper_protocol.hpp"

namespace toolguard::detail {

Expected<TlsTunnel> openTlsTunnel(const std::string& host, const std::string& port,
                                  long timeout_ms) {
  Expected<const HttpHelper*> helper = HttpHelper::installed();
  if (!helper) return fail(helper.error());
  Expected<std::pair<int, pid_t>> started = (*helper)->startTunnel();
  if (!started) return fail(started.error());
  TlsTunnel tunnel{started->first, started->second};
  std::string request(kTunnelGreeting);
  http_protocol::putField(request, host);
  http_protocol::putField(request, port);
  http_protocol::putU64(request, static_cast<uint64_t>(timeout_ms));
  std::string_view rest = request;
  while (!rest.empty()) {
    const ssize_t n = ::send(tunnel.fd, rest.data(), rest.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      closeTlsTunnel(tunnel);
      return fail("the TLS helper could not be given its request");
    }
    rest.remove_prefix(static_cast<size_t>(n));
  }
  // Its answer, one line, a byte at a time (nothing of the server's after it
  // is taken: the server speaks only once asked).
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms + 2000);
  std::string line;
  while (line.size() < 1024 && !line.ends_with('\n')) {
    const long left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd p{tunnel.fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) break;
    char c = 0;
    const ssize_t n = ::recv(tunnel.fd, &c, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    line += c;
  }
  if (line != "ok\n") {
    closeTlsTunnel(tunnel);
    if (line.starts_with("error: ") && line.ends_with('\n')) {
      return fail(line.substr(7, line.size() - 8));
    }
    return fail("the TLS helper ended without answering");
  }
  ::fcntl(tunnel.fd, F_SETFL, ::fcntl(tunnel.fd, F_GETFL) | O_NONBLOCK);
  return tunnel;
}

void closeTlsTunnel(TlsTunnel& tunnel) {
  if (tunnel.fd >= 0) ::close(tunnel.fd);
  tunnel.fd = -1;
  if (tunnel.pid > 0) {
    ::kill(tunnel.pid, SIGKILL);
    int status = 0;
    while (::waitpid(tunnel.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  tunnel.pid = -1;
}

}  // namespace toolguard::detail
