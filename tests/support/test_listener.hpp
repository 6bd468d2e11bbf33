#pragma once
// Listening sockets of a test's own: a place a sandboxed command must not
// reach (TCP on a free loopback port, or a Unix socket at a path), and a
// small HTTP server that answers every request and keeps what it was sent.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace toolguard::testing {

/// A non-blocking listening socket, closed (and a Unix socket's file
/// removed) at the end. fd() is -1 when it could not be made.
class TestListener {
 public:
  /// TCP on a free port of 127.0.0.1.
  static TestListener tcpOnLoopback() {
    TestListener listener;
    listener.fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listener.fd_ < 0 ||
        ::bind(listener.fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener.fd_, 64) != 0 ||
        ::getsockname(listener.fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      listener.reset();
      return listener;
    }
    listener.port_ = ntohs(address.sin_port);
    return listener;
  }

  /// A Unix stream socket at `path` (shorter than sun_path).
  static TestListener unixAt(const std::string& path) {
    TestListener listener;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) return listener;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    listener.fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listener.fd_ < 0 ||
        ::bind(listener.fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener.fd_, 8) != 0) {
      listener.reset();
      return listener;
    }
    listener.path_ = path;
    return listener;
  }

  TestListener(TestListener&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), port_(other.port_), path_(std::move(other.path_)) {
    other.path_.clear();
  }
  TestListener& operator=(TestListener&&) = delete;
  ~TestListener() { reset(); }

  int fd() const { return fd_; }
  int port() const { return port_; }
  std::string portText() const { return std::to_string(port_); }

  /// True when a connection is waiting (it is accepted and closed): someone reached it.
  bool reached() const {
    const int accepted = ::accept(fd_, nullptr, nullptr);
    if (accepted < 0) return false;
    ::close(accepted);
    return true;
  }

 private:
  TestListener() = default;
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!path_.empty()) ::unlink(path_.c_str());
    path_.clear();
  }
  int fd_ = -1;
  int port_ = 0;
  std::string path_;
};

/// An HTTP/1 server on a free loopback port: every request gets 200 with
/// `body` and the connection is closed. requests() holds the heads it read.
class TestHttpServer {
 public:
  explicit TestHttpServer(std::string body)
      : listener_(TestListener::tcpOnLoopback()), body_(std::move(body)) {
    thread_ = std::thread([this] { serve(); });
  }
  ~TestHttpServer() {
    stop_ = true;
    thread_.join();
  }
  TestHttpServer(const TestHttpServer&) = delete;
  TestHttpServer& operator=(const TestHttpServer&) = delete;

  int port() const { return listener_.port(); }
  std::string portText() const { return listener_.portText(); }
  std::vector<std::string> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{listener_.fd(), POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int client = ::accept4(listener_.fd(), nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      std::string head;
      char chunk[4096];
      while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
        pollfd c{client, POLLIN, 0};
        if (::poll(&c, 1, 3000) <= 0) break;
        const ssize_t got = ::recv(client, chunk, sizeof chunk, 0);
        if (got <= 0) break;
        head.append(chunk, static_cast<size_t>(got));
      }
      {
        std::lock_guard lock(mutex_);
        requests_.push_back(head);
      }
      const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                                 std::to_string(body_.size()) + "\r\nConnection: close\r\n\r\n" +
                                 body_;
      [[maybe_unused]] ssize_t sent = ::send(client, answer.data(), answer.size(), MSG_NOSIGNAL);
      ::close(client);
    }
  }

  TestListener listener_;
  std::string body_;
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace toolguard::testing
