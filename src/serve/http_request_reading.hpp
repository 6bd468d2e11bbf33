#pragma once
// Internal: reading one request from libmicrohttpd: its query arguments and
// headers, the headers that must come at most once, the body's declared
// length, and who sent it.

#include <microhttpd.h>

#include <string>

#include "serve/http_server.hpp"

namespace toolguard::serve {

/// Adds a query argument to the std::map<std::string, std::string> at
/// `cls` (at most 200; a nameless one is dropped). For MHD_get_connection_values.
MHD_Result collectArgument(void* cls, MHD_ValueKind, const char* key, const char* value);

/// Adds a header, its name in lower case, to the std::map at `cls`.
MHD_Result collectHeader(void* cls, MHD_ValueKind, const char* key, const char* value);

/// Why the request's headers are refused (400): a header that must come at
/// most once came twice, or Transfer-Encoding beside Content-Length; "" when fine.
std::string headerProblem(MHD_Connection* connection);

/// Whether the request's Content-Length, when it has one, is a number of at
/// most `max_body_bytes` (else it is answered 413 before its body is read).
bool declaredLengthFits(MHD_Connection* connection, size_t max_body_bytes);

/// The request's head: method, path, query arguments and headers, from
/// `peer`, with the verified client certificate's name when
/// `with_certificate` (a client CA is configured). Its body is read later.
HttpRequest readRequestHead(MHD_Connection* connection, const char* method, const char* url,
                            std::string peer, bool with_certificate);

/// "HOST:PORT" of the client ("unix" on the Unix socket; "" when unknown).
std::string peerOf(MHD_Connection* connection, bool unix_socket);

/// Whether the peer of socket `fd` has closed its side or the connection
/// broke (without reading what it may have sent).
bool peerClosed(int fd);

}  // namespace toolguard::serve
