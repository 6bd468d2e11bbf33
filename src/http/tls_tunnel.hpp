#pragma once
// Internal: TLS for the statically linked command, through the toolguard-http
// helper (`toolguard-http --tunnel`, src/http/tls_tunnel_main.cpp): the
// helper makes the connection and the handshake and relays plain bytes over
// a socket pair, so the command's own HTTP/1.1 client (http_stream.hpp)
// speaks through it as over TCP.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// The first bytes of a tunnel request (then host, port and the connect
/// timeout as http_protocol fields).
inline constexpr std::string_view kTunnelGreeting = "toolguard-http tunnel 1\n";

/// A tunnel's end in this process and the helper that holds the TLS side.
struct TlsTunnel {
  int fd = -1;     ///< non-blocking, close-on-exec; the server's bytes in plain text
  pid_t pid = -1;  ///< the helper: killed and reaped by closeTlsTunnel
};

/// Starts the helper and waits (up to `timeout_ms`) for its TLS connection
/// to host:port, the certificate verified against the system's trusted CAs
/// (or SSL_CERT_FILE / SSL_CERT_DIR) and naming `host`. Fails, saying why.
Expected<TlsTunnel> openTlsTunnel(const std::string& host, const std::string& port,
                                  long timeout_ms);

/// Closes our end and stops and reaps the helper.
void closeTlsTunnel(TlsTunnel& tunnel);

/// The helper's side (toolguard-http --tunnel): returns its exit code.
int runTlsTunnel();

}  // namespace toolguard::detail
