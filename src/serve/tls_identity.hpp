#pragma once
// Internal: who a TLS client is, from the certificate it showed, verified
// against the client CA `toolguard serve` was given.

#include <microhttpd.h>

#include <string>

namespace toolguard::serve {

/// The common name (CN) of the client certificate on this TLS connection
/// when GnuTLS verified it against the configured CA (signature, validity
/// period, key usage); "" when there is none or it does not verify.
std::string verifiedClientName(MHD_Connection* connection);

}  // namespace toolguard::serve
