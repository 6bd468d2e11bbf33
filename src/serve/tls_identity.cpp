// A TLS client's verified certificate name, through GnuTLS.
#include "serve/tls_identity.hpp"

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace toolguard::serve {

std::string verifiedClientName(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  if (!info || !info->tls_session) return "";
  auto session = static_cast<gnutls_session_t>(info->tls_session);
  if (gnutls_certificate_type_get(session) != GNUTLS_CRT_X509) return "";
  unsigned status = 0;
  // The peer's chain against the trusted CA, the validity period included.
  if (gnutls_certificate_verify_peers2(session, &status) != GNUTLS_E_SUCCESS || status != 0) {
    return "";
  }
  unsigned count = 0;
  const gnutls_datum_t* chain = gnutls_certificate_get_peers(session, &count);
  if (!chain || count == 0) return "";
  gnutls_x509_crt_t certificate = nullptr;
  if (gnutls_x509_crt_init(&certificate) != GNUTLS_E_SUCCESS) return "";
  std::unique_ptr<gnutls_x509_crt_int, decltype(&gnutls_x509_crt_deinit)> owned(
      certificate, gnutls_x509_crt_deinit);
  if (gnutls_x509_crt_import(certificate, &chain[0], GNUTLS_X509_FMT_DER) != GNUTLS_E_SUCCESS) {
    return "";
  }
  // A certificate that is itself a CA is not a client's.
  unsigned critical = 0;
  if (gnutls_x509_crt_get_ca_status(certificate, &critical) > 0) return "";
  char name[256];
  size_t size = sizeof name;
  if (gnutls_x509_crt_get_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 0, 0, name, &size) !=
      GNUTLS_E_SUCCESS) {
    return "";
  }
  // A second CN would make the name ambiguous.
  char second[256];
  size_t second_size = sizeof second;
  if (gnutls_x509_crt_get_dn_by_oid(certificate, GNUTLS_OID_X520_COMMON_NAME, 1, 0, second,
                                    &second_size) != GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE) {
    return "";
  }
  return std::string(name, size);
}

std::string readPemFile(const std::string& what, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    throw std::runtime_error("cannot read the " + what + " " + path + ": " + std::strerror(errno));
  }
  std::string text;
  char chunk[4096];
  size_t got = 0;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) text.append(chunk, got);
  std::fclose(f);
  if (text.empty()) throw std::runtime_error("the " + what + " " + path + " is empty");
  return text;
}

}  // namespace toolguard::serve
