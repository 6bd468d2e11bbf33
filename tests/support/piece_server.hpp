#pragma once
// A one-connection HTTP server on loopback for client tests: accepts one
// connection, reads the request head, sends its answer in the pieces given
// (a short pause after each, so each arrives on its own; "<wait>" pauses
// 800 ms instead), then closes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "support/loopback_listener.hpp"

namespace toolguard::testing {

class PieceServer {
 public:
  explicit PieceServer(std::vector<std::string> pieces) {
    fd_ = loopbackListener(port_);
    thread_ = std::thread([this, pieces = std::move(pieces)] {
      const int c = accept(fd_, nullptr, nullptr);
      const int one = 1;
      setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      std::string in;
      char buffer[4096];
      while (in.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = recv(c, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        in.append(buffer, static_cast<size_t>(n));
      }
      // The body too (by its Content-Length): closing with unread bytes
      // would reset the connection and could lose the answer.
      const size_t head_end = in.find("\r\n\r\n");
      const size_t length_at = in.find("Content-Length: ");
      if (head_end != std::string::npos && length_at != std::string::npos && length_at < head_end) {
        const size_t body = std::stoul(in.substr(length_at + 16));
        while (in.size() < head_end + 4 + body) {
          const ssize_t n = recv(c, buffer, sizeof buffer, 0);
          if (n <= 0) break;
          in.append(buffer, static_cast<size_t>(n));
        }
      }
      received = in;
      for (const std::string& piece : pieces) {
        if (piece == "<wait>") {
          std::this_thread::sleep_for(std::chrono::milliseconds(800));
          continue;
        }
        send(c, piece.data(), piece.size(), MSG_NOSIGNAL);
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      }
      // An orderly end: our side first, then whatever the client still says.
      shutdown(c, SHUT_WR);
      pollfd rest{c, POLLIN, 0};
      while (poll(&rest, 1, 200) > 0 && recv(c, buffer, sizeof buffer, 0) > 0) {
      }
      close(c);
    });
  }
  ~PieceServer() {
    thread_.join();
    close(fd_);
  }
  PieceServer(const PieceServer&) = delete;
  PieceServer& operator=(const PieceServer&) = delete;

  int port() const { return port_; }
  /// The request head as it arrived.
  std::string received;

 private:
  int fd_;
  int port_;
  std::thread thread_;
};

}  // namespace toolguard::testing
