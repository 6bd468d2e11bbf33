#pragma once
// Internal: reading one request from libmicrohttpd: its query arguments and
// headers, the headers that must come at most once, and who sent it.

#include <microhttpd.h>

#include <string>

namespace toolguard::serve {

/// Adds a query argument to the std::map<std::string, std::string> at
/// `cls` (at most 200; a nameless one is dropped). For MHD_get_connection_values.
MHD_Result collectArgument(void* cls, MHD_ValueKind, const char* key, const char* value);

/// Adds a header, its name in lower case, to the std::map at `cls`.
MHD_Result collectHeader(void* cls, MHD_ValueKind, const char* key, const char* value);

/// Why the request's headers are refused (400): a header that must come at
/// most once came twice, or Transfer-Encoding beside Content-Length; "" when fine.
std::string headerProblem(MHD_Connection* connection);

/// "HOST:PORT" of the client ("unix" on the Unix socket; "" when unknown).
std::string peerOf(MHD_Connection* connection, bool unix_socket);

/// Whether the peer of socket `fd` has closed its side or the connection
/// broke (without reading what it may have sent).
bool peerClosed(int fd);

}  // namespace toolguard::serve
