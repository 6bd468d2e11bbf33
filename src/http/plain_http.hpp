#pragma once
// Internal: one HTTP/1.1 exchange over plain TCP or a Unix socket, made in
// this process (no helper, no TLS): what `toolguard check --server` sends to
// a local or loopback `toolguard serve` on every tool call. https:// goes
// through the toolguard-http helper instead.

#include <map>
#include <optional>
#include <string>

namespace toolguard::detail {

/// Where a service listens: "http://HOST:PORT[/PREFIX]" or "unix:/PATH".
struct ServiceAddress {
  std::string host;         ///< TCP: a name or a numeric address
  std::string port = "80";  ///< TCP
  std::string socket_path;  ///< Unix: the socket's path (host is then empty)
  std::string prefix;       ///< a path the API is mounted under ("" or "/guard")
};

/// Reads "http://HOST[:PORT][/PREFIX]" or "unix:/PATH"; nullopt with `error`
/// for anything else (https:// is not read here).
std::optional<ServiceAddress> parseServiceAddress(const std::string& url, std::string& error);

/// What came back.
struct PlainHttpResponse {
  int status = 0;
  std::string content_type;
  std::string body;
};

/// Sends one request with `body` (Content-Length; Connection: close) and
/// reads the whole response within `timeout_ms` (connect included).
/// nullopt with `error` for a failure (no connection, a timeout, a response
/// that is not HTTP, a body over 16 MiB): never a partial response.
std::optional<PlainHttpResponse> plainHttpExchange(
    const ServiceAddress& address, const std::string& method, const std::string& target,
    const std::map<std::string, std::string>& headers, const std::string& body, long timeout_ms,
    std::string& error);

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
/// exchange bounded by `timeout_ms`. nullopt with `error` on any failure.
/// `certificate` is shown to an https:// server (an error for any other).
std::optional<PlainHttpResponse> postToService(const std::string& url, const std::string& target,
                                               const std::map<std::string, std::string>& headers,
                                               const std::string& body, long timeout_ms,
                                               std::string& error,
                                               const ClientCertificate& certificate = {});

}  // namespace toolguard::detail
