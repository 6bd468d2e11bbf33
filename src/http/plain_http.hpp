#pragma once
// Internal: one HTTP/1.1 exchange over plain TCP or a Unix socket, made in
// this process (no helper, no TLS): what `toolguard check --server` sends to
// a local or loopback `toolguard serve` on every tool call. https:// goes
// through the toolguard-http helper instead.

#include <chrono>
#include <map>
#include <string>

#include "toolguard/expected.hpp"

namespace toolguard::detail {

/// Where a service listens: "http://HOST:PORT[/PREFIX]" or "unix:/PATH".
struct ServiceAddress {
  std::string host;         ///< TCP: a name or a numeric address
  std::string port = "80";  ///< TCP
  std::string socket_path;  ///< Unix: the socket's path (host is then empty)
  std::string prefix;       ///< a path the API is mounted under ("" or "/guard")
};

/// Reads "http://HOST[:PORT][/PREFIX]" or "unix:/PATH"; fails, saying why,
/// for anything else (https:// is not read here).
Expected<ServiceAddress> parseServiceAddress(const std::string& url);

/// Waits until `fd` is ready for `events` (poll) or `deadline` passes:
/// false for the deadline or a poll error.
bool waitFor(int fd, short events, std::chrono::steady_clock::time_point deadline);

/// A socket connected to `address` (non-blocking, close-on-exec) by
/// `deadline`, trying each of the host's addresses; fails, saying why.
Expected<int> connectWithin(const ServiceAddress& address,
                            std::chrono::steady_clock::time_point deadline);

/// What came back.
struct PlainHttpResponse {
  int status = 0;
  std::string content_type;
  std::string body;
};

/// Sends one request with `body` (Content-Length; Connection: close) and
/// reads the whole response within `timeout_ms` (connect included).
/// Fails, saying why, for a failure (no connection, a timeout, a response
/// that is not HTTP, a body over 16 MiB): never a partial response.
Expected<PlainHttpResponse> plainHttpExchange(const ServiceAddress& address,
                                              const std::string& method, const std::string& target,
                                              const std::map<std::string, std::string>& headers,
                                              const std::string& body, long timeout_ms);

}  // namespace toolguard::detail

namespace toolguard::detail {

/// A client certificate and its key (PEM files), for an https:// service
/// that takes them instead of a token; empty for none.
struct ClientCertificate {
  std::string certificate;
  std::string key;
};

/// POSTs `body` to `url` + `target` ("http://...", "unix:/...", or
/// "https://...", which goes through the toolguard-http helper), the whole
/// exchange bounded by `timeout_ms`. Fails, saying why, on any failure.
/// `certificate` is shown to an https:// server (an error for any other).
Expected<PlainHttpResponse> postToService(const std::string& url, const std::string& target,
                                          const std::map<std::string, std::string>& headers,
                                          const std::string& body, long timeout_ms,
                                          const ClientCertificate& certificate = {});

}  // namespace toolguard::detail
