// toolguard-http --tunnel: a TLS connection as a plain byte stream, for the
// statically linked toolguard command, which has no TLS of its own (its
// streaming HTTP client, src/http/http_stream.cpp, then speaks HTTP/1.1
// through it). The request on stdin is the tunnel greeting and three fields
// (http_helper_protocol.hpp): host, port, connect timeout in ms. The helper
// connects, makes the TLS handshake (the system's trusted CAs, or
// SSL_CERT_FILE / SSL_CERT_DIR; the certificate must name the host), and
// answers one line: "ok" or "error: WHY". Then it relays: bytes on stdin go
// to the server, the server's bytes to stdout, until either side ends.
#include <arpa/inet.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "http/http_helper_protocol.hpp"
#include "http/tls_tunnel.hpp"

namespace toolguard::detail {
namespace {

namespace protocol = http_protocol;

bool writeWhole(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

int replyLine(const std::string& line, int code) {
  writeWhole(1, line + "\n");
  return code;
}

std::string sslError(const std::string& what) {
  const unsigned long code = ERR_get_error();
  if (code == 0) return what;
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return what + " (" + text + ")";
}

// Reads the request: the greeting and its fields, up to the end of the
// line-delimited greeting block (the library sends it whole, then waits).
bool readRequest(std::string& host, std::string& port, uint64_t& timeout_ms) {
  std::string text;
  char c[4096];
  // The request is small and comes in one write: read until its fields parse.
  for (int reads = 0; reads < 64; ++reads) {
    const ssize_t n = ::read(0, c, sizeof c);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.append(c, static_cast<size_t>(n));
    if (!text.starts_with(kTunnelGreeting)) {
      if (text.size() >= kTunnelGreeting.size()) return false;
      continue;
    }
    protocol::FieldReader reader(std::string_view(text).substr(kTunnelGreeting.size()));
    if (reader.field(host) && reader.field(port) && reader.u64(timeout_ms) && reader.done()) {
      return true;
    }
  }
  return false;
}

// A TCP connection to host:port within the timeout (every address tried).
int connectTcp(const std::string& host, const std::string& port, uint64_t timeout_ms,
               std::string& why) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int error = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); error != 0) {
    why = "cannot resolve " + host + ": " + ::gai_strerror(error);
    return -1;
  }
  int connected = -1;
  why = "no address of " + host;
  for (addrinfo* a = found; a != nullptr && connected < 0; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    timeval limit{static_cast<time_t>(timeout_ms / 1000),
                  static_cast<suseconds_t>((timeout_ms % 1000) * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
      connected = fd;
      break;
    }
    why = "cannot connect to " + host + ":" + port + ": " + std::strerror(errno);
    ::close(fd);
  }
  ::freeaddrinfo(found);
  return connected;
}

bool isIpLiteral(const std::string& host) {
  unsigned char buffer[16];
  return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

// Relays until either side ends.
void relay(SSL* ssl, int server) {
  char buffer[16384];
  for (;;) {
    if (SSL_pending(ssl) == 0) {
      pollfd fds[2] = {{0, POLLIN, 0}, {server, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[0].revents != 0) {
        const ssize_t n = ::read(0, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the library is done
        if (SSL_write(ssl, buffer, static_cast<int>(n)) <= 0) return;
        continue;
      }
      if (fds[1].revents == 0) continue;
    }
    const int n = SSL_read(ssl, buffer, sizeof buffer);
    if (n <= 0) {
      const int error = SSL_get_error(ssl, n);
      if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) continue;
      return;  // the server closed (or the connection broke)
    }
    if (!writeWhole(1, std::string_view(buffer, static_cast<size_t>(n)))) return;
  }
}

}  // namespace

int runTlsTunnel() {
  std::string host, port;
  uint64_t timeout_ms = 0;
  if (!readRequest(host, port, timeout_ms))
    return replyLine("error: a malformed tunnel request", 2);
  std::string why;
  const int server = connectTcp(host, port, timeout_ms, why);
  if (server < 0) return replyLine("error: " + why, 1);
  SSL_CTX* context = SSL_CTX_new(TLS_client_method());
  if (context == nullptr) return replyLine("error: " + sslError("no TLS context"), 1);
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
  if (SSL_CTX_set_default_verify_paths(context) != 1) {
    return replyLine("error: " + sslError("the trusted certificates cannot be read"), 1);
  }
  SSL* ssl = SSL_new(context);
  SSL_set_fd(ssl, server);
  // A read that meets only a record that is no data (a TLS 1.3 session
  // ticket after the handshake) returns to the poll instead of blocking
  // for data the server sends only once asked: the request waiting on
  // stdin would never be read.
  SSL_clear_mode(ssl, SSL_MODE_AUTO_RETRY);
  if (isIpLiteral(host)) {
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl, host.c_str());
    SSL_set1_host(ssl, host.c_str());
  }
  if (SSL_connect(ssl) != 1) {
    const long verify = SSL_get_verify_result(ssl);
    const std::string reason = verify != X509_V_OK
                                   ? std::string("its certificate is not trusted: ") +
                                         X509_verify_cert_error_string(verify)
                                   : sslError("the TLS handshake failed");
    return replyLine("error: " + reason, 1);
  }
  // Reads and writes block from now on (no send timeout).
  timeval none{0, 0};
  ::setsockopt(server, SOL_SOCKET, SO_SNDTIMEO, &none, sizeof none);
  if (!writeWhole(1, "ok\n")) return 1;
  relay(ssl, server);
  SSL_shutdown(ssl);
  SSL_free(ssl);
  SSL_CTX_free(context);
  ::close(server);
  return 0;
}

}  // namespace toolguard::detail
