// Reading one request from libmicrohttpd (http_request_reading.hpp).
#include "serve/http_request_reading.hpp"

#include <netdb.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <map>

#include "serve/http_server.hpp"
#include "serve/tls_identity.hpp"

namespace toolguard::serve {
namespace {

std::string lowerCase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Counts the headers that must come at most once, and notes a
// Transfer-Encoding beside a Content-Length.
struct HeaderCounts {
  int authorization = 0;
  int content_length = 0;
  int transfer_encoding = 0;
  int host = 0;
};

MHD_Result countHeader(void* cls, MHD_ValueKind, const char* key, const char*) {
  auto* counts = static_cast<HeaderCounts*>(cls);
  if (key == nullptr) return MHD_YES;
  if (::strcasecmp(key, "authorization") == 0) ++counts->authorization;
  if (::strcasecmp(key, "content-length") == 0) ++counts->content_length;
  if (::strcasecmp(key, "transfer-encoding") == 0) ++counts->transfer_encoding;
  if (::strcasecmp(key, "host") == 0) ++counts->host;
  return MHD_YES;
}

}  // namespace

std::string HttpRequest::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

std::string HttpRequest::arg(const std::string& name) const {
  auto it = query.find(name);
  return it == query.end() ? "" : it->second;
}

std::optional<long> HttpRequest::wholeNumberArg(const std::string& name) const {
  const std::string text = arg(name);
  if (text.empty()) return 0;
  if (text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stol(text);
}

MHD_Result collectArgument(void* cls, MHD_ValueKind, const char* key, const char* value) {
  auto* into = static_cast<std::map<std::string, std::string>*>(cls);
  std::string name = key ? key : "";
  if (into->size() < 200 && !name.empty()) (*into)[name] = value ? value : "";
  return MHD_YES;
}

MHD_Result collectHeader(void* cls, MHD_ValueKind, const char* key, const char* value) {
  auto* into = static_cast<std::map<std::string, std::string>*>(cls);
  std::string name = lowerCase(key ? key : "");
  if (!name.empty()) (*into)[name] = value ? value : "";
  return MHD_YES;
}

std::string headerProblem(MHD_Connection* connection) {
  HeaderCounts counts;
  MHD_get_connection_values(connection, MHD_HEADER_KIND, countHeader, &counts);
  if (counts.authorization > 1) return "more than one Authorization header";
  if (counts.content_length > 1) return "more than one Content-Length header";
  if (counts.host > 1) return "more than one Host header";
  if (counts.transfer_encoding > 0 && counts.content_length > 0) {
    return "both Transfer-Encoding and Content-Length";
  }
  return "";
}

bool declaredLengthFits(MHD_Connection* connection, size_t max_body_bytes) {
  const char* length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
  if (!length) return true;
  errno = 0;
  char* end = nullptr;
  const unsigned long long declared = std::strtoull(length, &end, 10);
  return errno == 0 && end != length && *end == '\0' && declared <= max_body_bytes;
}

HttpRequest readRequestHead(MHD_Connection* connection, const char* method, const char* url,
                            std::string peer, bool with_certificate) {
  HttpRequest head;
  head.method = method ? method : "";
  head.path = url ? url : "";
  head.peer = std::move(peer);
  MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collectArgument, &head.query);
  MHD_get_connection_values(connection, MHD_HEADER_KIND, collectHeader, &head.headers);
  if (with_certificate) head.client_certificate = verifiedClientName(connection);
  return head;
}

std::string peerOf(MHD_Connection* connection, bool unix_socket) {
  if (unix_socket) return "unix";
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!info || !info->client_addr) return "";
  char host[NI_MAXHOST];
  char port[NI_MAXSERV];
  const socklen_t size =
      info->client_addr->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
  if (getnameinfo(info->client_addr, size, host, sizeof host, port, sizeof port,
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "";
  }
  return std::string(host) + ":" + port;
}

bool peerClosed(int fd) {
  pollfd p{fd, POLLRDHUP, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  return (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

}  // namespace toolguard::serve
