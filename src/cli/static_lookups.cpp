// The user database and host addresses of the statically linked command.
//
// A statically linked glibc answers getpwnam and getaddrinfo through NSS,
// which may load the system's NSS modules at run time and so needs the
// shared libraries of the very glibc it was built with (the linker warns
// about each such call). The command reads what it needs itself instead:
// users from /etc/passwd (fgetpwent_r), hosts as numeric addresses, from
// /etc/hosts, then from DNS through libresolv (res_nsearch, the stub
// resolver, which reads /etc/resolv.conf and never loads a module).
// A user only a directory service knows is then unknown, so `~name` is
// known only at run time and asked about, never allowed blindly.
//
// These definitions replace the library's (src/paths/user_database.cpp,
// src/http/host_addresses.cpp): an object file given to the linker comes
// before the archive, so the archive's members that define the same
// functions are never pulled in. Built only into the fully static command
// (CMakeLists.txt, TOOLGUARD_STATIC_COMMAND).
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netinet/in.h>
#include <pwd.h>
#include <resolv.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "http/host_addresses.hpp"
#include "paths/user_database.hpp"

namespace toolguard::detail {
namespace {

// The first /etc/passwd entry `matches` accepts; its home directory.
template <typename Match>
std::optional<std::string> homeInPasswd(Match matches) {
  FILE* file = std::fopen("/etc/passwd", "re");
  if (file == nullptr) return std::nullopt;
  std::optional<std::string> home;
  std::vector<char> buffer(4096);
  passwd entry{};
  passwd* found = nullptr;
  while (fgetpwent_r(file, &entry, buffer.data(), buffer.size(), &found) == 0) {
    if (found != nullptr && matches(*found)) {
      if (found->pw_dir != nullptr) home = found->pw_dir;
      break;
    }
  }
  std::fclose(file);
  return home;
}

// `text` as a numeric IPv4 or IPv6 address on `port`.
bool numericAddress(const std::string& text, uint16_t port, HostAddress& out) {
  sockaddr_in v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    std::memcpy(&out.address, &v4, sizeof v4);
    out.size = sizeof v4;
    return true;
  }
  sockaddr_in6 v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    std::memcpy(&out.address, &v6, sizeof v6);
    out.size = sizeof v6;
    return true;
  }
  return false;
}

bool sameName(const std::string& a, const std::string& b) {
  return a.size() == b.size() && strncasecmp(a.c_str(), b.c_str(), a.size()) == 0;
}

// The addresses /etc/hosts gives `host`.
std::vector<HostAddress> fromHostsFile(const std::string& host, uint16_t port) {
  std::vector<HostAddress> addresses;
  std::ifstream file("/etc/hosts");
  for (std::string line; std::getline(file, line);) {
    if (size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string address;
    if (!(fields >> address)) continue;
    for (std::string name; fields >> name;) {
      HostAddress a;
      if (sameName(name, host) && numericAddress(address, port, a)) {
        addresses.push_back(a);
        break;
      }
    }
  }
  return addresses;
}

// The A or AAAA records DNS gives `host`, appended to `addresses`.
void fromDns(res_state resolver, const std::string& host, uint16_t port, int type,
             std::vector<HostAddress>& addresses) {
  std::vector<unsigned char> answer(8192);
  const int size = res_nsearch(resolver, host.c_str(), ns_c_in, type, answer.data(),
                               static_cast<int>(answer.size()));
  if (size <= 0) return;
  ns_msg message;
  if (ns_initparse(answer.data(), size, &message) != 0) return;
  const int count = ns_msg_count(message, ns_s_an);
  for (int i = 0; i < count; ++i) {
    ns_rr record;
    if (ns_parserr(&message, ns_s_an, i, &record) != 0 || ns_rr_type(record) != type) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const int family = type == ns_t_a ? AF_INET : AF_INET6;
    const size_t length = type == ns_t_a ? 4 : 16;
    if (ns_rr_rdlen(record) != length) continue;
    HostAddress a;
    if (inet_ntop(family, ns_rr_rdata(record), text, sizeof text) != nullptr &&
        numericAddress(text, port, a)) {
      addresses.push_back(a);
    }
  }
}

}  // namespace

std::optional<std::string> homeOfUser(const std::string& name) {
  return homeInPasswd(
      [&](const passwd& entry) { return entry.pw_name != nullptr && name == entry.pw_name; });
}

std::optional<std::string> homeOfThisUser() {
  const uid_t uid = getuid();
  return homeInPasswd([&](const passwd& entry) { return entry.pw_uid == uid; });
}

Expected<std::vector<HostAddress>> hostAddresses(const std::string& host, const std::string& port) {
  char* end = nullptr;
  const unsigned long number = std::strtoul(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || number == 0 || number > 65535) {
    return fail("the port must be a number from 1 to 65535");
  }
  const auto tcp_port = static_cast<uint16_t>(number);
  HostAddress numeric;
  if (numericAddress(host, tcp_port, numeric)) return std::vector<HostAddress>{numeric};
  std::vector<HostAddress> addresses = fromHostsFile(host, tcp_port);
  if (!addresses.empty()) return addresses;
  struct __res_state resolver {};
  if (res_ninit(&resolver) != 0) {
    return fail("cannot read the resolver's configuration (/etc/resolv.conf)");
  }
  fromDns(&resolver, host, tcp_port, ns_t_aaaa, addresses);
  fromDns(&resolver, host, tcp_port, ns_t_a, addresses);
  res_nclose(&resolver);
  if (addresses.empty()) return fail("no address found for the host name " + host);
  return addresses;
}

}  // namespace toolguard::detail
