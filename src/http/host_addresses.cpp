// Host addresses through getaddrinfo. Kept out of unity batches: the
// statically linked command replaces this file's function with its own
// (src/cli/static_lookups.cpp), which works only while it is alone in its
// object file.
#include "host_addresses.hpp"

#include <netdb.h>

#include <cstring>

namespace toolguard::detail {

Expected<std::vector<HostAddress>> hostAddresses(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return fail(gai_strerror(rc));
  }
  std::vector<HostAddress> addresses;
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    if (ai->ai_addrlen > sizeof(sockaddr_storage)) continue;
    HostAddress a;
    std::memcpy(&a.address, ai->ai_addr, ai->ai_addrlen);
    a.size = ai->ai_addrlen;
    addresses.push_back(a);
  }
  freeaddrinfo(found);
  if (addresses.empty()) return fail("no address");
  return addresses;
}

}  // namespace toolguard::detail
