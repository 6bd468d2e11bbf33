#pragma once
// Internal: who a TLS client is, from the certificate it showed, verified
// against the client CA `toolguard serve` was given; and the PEM files TLS
// is configured with.

#include <microhttpd.h>

#include <string>

namespace toolguard::serve {

/// The common name (CN) of the client certificate on this TLS connection
/// when GnuTLS verified it against the configured CA (signature, validity
/// period, key usage); "" when there is none or it does not verify.
std::string verifiedClientName(MHD_Connection* connection);

/// The whole text of a PEM file (`what` names it in errors: "TLS key").
/// Throws std::runtime_error when it cannot be read or is empty.
std::string readPemFile(const std::string& what, const std::string& path);

}  // namespace toolguard::serve
