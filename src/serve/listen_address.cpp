// The --listen address: HOST:PORT in, host and port out (listen_address.hpp).
#include "serve/listen_address.hpp"

#include <stdexcept>

namespace toolguard::serve {

std::pair<std::string, int> listenAddress(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon + 1 == listen.size()) {
    throw std::runtime_error("--listen: HOST:PORT, such as 127.0.0.1:8787");
  }
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string port = listen.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoi(port) > 65535) {
    throw std::runtime_error("--listen: the port must be a number up to 65535");
  }
  return {host, std::stoi(port)};
}

std::string hostInUrl(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace toolguard::serve
